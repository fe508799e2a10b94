-- wrk script: POST /oauth/token redeeming one authorization code per request (measure.py mints
-- them beforehand and hands each thread its own as "code|verifier"), client_secret_basic in the
-- Authorization header measure.py passes.
dofile(string.match(debug.getinfo(1, "S").source, "^@(.*/)") .. "../Throughput/token_slices.lua")

function request()
    local code, verifier = string.match(table.remove(held) or "none-left|none", "([^|]+)|([^|]+)")
    return wrk.format("POST", "/oauth/token", nil,
        "grant_type=authorization_code&code=" .. code .. "&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_verifier=" .. verifier)
end

function response(status, headers, body)
    if status ~= 200 or not string.find(body, '"id_token"', 1, true) then failed("exchange", status, body) end
end
