-- wrk script: POST /oauth/token redeeming one authorization code per request (measure.py mints
-- them beforehand), client_secret_basic in the Authorization header measure.py passes.
-- `token_slices` (one comma-separated list of "code|verifier" per wrk thread) is defined first.
local next_slice = 1
local threads = {}

function setup(thread)
    thread:set("token_list", token_slices[next_slice])
    next_slice = next_slice + 1
    table.insert(threads, thread)
end

local codes = {}
failures = 0

function init(args)
    for pair in string.gmatch(token_list or "", "[^,]+") do
        table.insert(codes, pair)
    end
end

function request()
    local pair = table.remove(codes) or "none-left|none"
    local code, verifier = string.match(pair, "([^|]+)|([^|]+)")
    return wrk.format("POST", "/oauth/token", nil,
        "grant_type=authorization_code&code=" .. code .. "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_verifier=" .. verifier)
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, '"id_token"', 1, true) then
        failures = failures + 1
        if failures <= 3 then io.write("exchange failed: " .. status .. " " .. string.sub(body, 1, 120) .. "\n") end
    end
end

function done(summary, latency, requests)
    local failed = 0
    for _, thread in ipairs(threads) do
        failed = failed + (tonumber(thread:get("failures")) or 0)
    end
    io.write(string.format("refresh failures: %d\n", failed))
end
