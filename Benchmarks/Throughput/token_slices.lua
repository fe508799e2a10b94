-- What the wrk scripts that hand each thread tokens of its own share (Throughput/refresh.lua,
-- OAuth/refresh.lua, OAuth/exchange.lua): `token_slices` (one comma-separated list per wrk
-- thread, defined by run.py before the script) become each thread's `held` list, and a thread's
-- `failures` are added up at the end as "refresh failures: N", which run.py reads.
local next_slice = 1
local threads = {}

function setup(thread)
    thread:set("token_list", token_slices[next_slice])
    next_slice = next_slice + 1
    table.insert(threads, thread)
end

held = {}
failures = 0

function init(args)
    for token in string.gmatch(token_list or "", "[^,]+") do
        table.insert(held, token)
    end
end

-- Counts a failed answer; the first few say why, in run.py's output.
function failed(kind, status, body)
    failures = failures + 1
    if failures <= 3 then io.write(kind .. " failed: " .. status .. " " .. string.sub(body, 1, 120) .. "\n") end
end

function done(summary, latency, requests)
    local total = 0
    for _, thread in ipairs(threads) do
        total = total + (tonumber(thread:get("failures")) or 0)
    end
    io.write(string.format("refresh failures: %d\n", total))
end
