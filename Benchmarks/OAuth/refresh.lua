-- wrk script: POST /oauth/token grant_type=refresh_token, each request with a refresh token this
-- thread holds, each successor kept for a later request (as Benchmarks/Throughput/refresh.lua
-- does for the staff refresh). `token_slices` is defined by measure.py before this file.
local next_slice = 1
local threads = {}

function setup(thread)
    thread:set("token_list", token_slices[next_slice])
    next_slice = next_slice + 1
    table.insert(threads, thread)
end

local held = {}
failures = 0

function init(args)
    for token in string.gmatch(token_list or "", "[^,]+") do
        table.insert(held, token)
    end
end

function request()
    local token = table.remove(held) or "none-left"
    return wrk.format("POST", "/oauth/token", nil, "grant_type=refresh_token&refresh_token=" .. token)
end

function response(status, headers, body)
    local successor = string.match(body, '"refresh_token":"([^"]+)"')
    if status == 200 and successor then
        table.insert(held, successor)
    else
        failures = failures + 1
        if failures <= 3 then io.write("refresh failed: " .. status .. " " .. string.sub(body, 1, 120) .. "\n") end
    end
end

function done(summary, latency, requests)
    local failed = 0
    for _, thread in ipairs(threads) do
        failed = failed + (tonumber(thread:get("failures")) or 0)
    end
    io.write(string.format("refresh failures: %d\n", failed))
end
