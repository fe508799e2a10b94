-- wrk script: POST /api/auth/refresh, each request with a refresh token this thread holds,
-- each successor kept for a later request. run.py hands each thread two tokens per connection:
-- wrk may ask for a connection's next request before handing over the answer to its last.
dofile(string.match(debug.getinfo(1, "S").source, "^@(.*/)") .. "token_slices.lua")

function request()
    local token = table.remove(held) or "none-left"
    return wrk.format("POST", "/api/auth/refresh", { ["Content-Type"] = "application/json" },
        '{"refreshToken":"' .. token .. '"}')
end

function response(status, headers, body)
    local successor = string.match(body, '"refreshToken":"([^"]+)"')
    if status == 200 and successor then
        table.insert(held, successor)
    else
        failed("refresh", status, body)
    end
end
