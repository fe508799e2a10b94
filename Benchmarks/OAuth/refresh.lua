-- wrk script: POST /oauth/token grant_type=refresh_token, each request with a refresh token this
-- thread holds, each successor kept for a later request (as Throughput/refresh.lua does for the
-- staff refresh); client_secret_basic in the Authorization header measure.py passes.
dofile(string.match(debug.getinfo(1, "S").source, "^@(.*/)") .. "../Throughput/token_slices.lua")

function request()
    local token = table.remove(held) or "none-left"
    return wrk.format("POST", "/oauth/token", nil, "grant_type=refresh_token&refresh_token=" .. token)
end

function response(status, headers, body)
    local successor = string.match(body, '"refresh_token":"([^"]+)"')
    if status == 200 and successor then
        table.insert(held, successor)
    else
        failed("refresh", status, body)
    end
end
