#!/usr/bin/env bash
# Measures the staff sign-in path on a release build:
#   1. login step 1 latency at the default bcrypt cost (12), sequential, N runs;
#   2. requests/second of GET /api/auth/me (JWT check + session and user lookups) with wrk.
#   3. /api/health latency while four logins hash at cost 12.
# Usage: bash Benchmarks/staff-auth.sh [logins=20] [wrk-seconds=10] [wrk-connections=16]
# Installs wrk from Debian's packages if it is missing. Everything runs on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
logins=${1:-20}
seconds=${2:-10}
connections=${3:-16}
port=${BENCH_PORT:-18080}
base="http://127.0.0.1:$port"

command -v wrk >/dev/null || { echo "installing wrk..."; apt-get install -y -qq wrk >/dev/null; }
echo "== building release"
swift build -c release --product repairminder 2>&1 | tail -1
data=$(mktemp -d)
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
# Rate limits off: this measures the work, not the limiter.
.build/release/repairminder serve --demo --data-dir "$data" --port "$port" \
    --ip-rate-limit 0 --login-failure-limit 0 --code-resend-interval 0 --code-emails-per-hour 0 > "$data/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "$base/api/health" >/dev/null && break; sleep 0.2; done

json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
login_body='{"email":"admin@acme.test","password":"correct horse battery"}'

echo "== login step 1 at bcrypt cost 12, $logins sequential requests"
python3 - "$base" "$logins" "$login_body" <<'PY'
import json, statistics, sys, time, urllib.request
base, n, body = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
times = []
for _ in range(n):
    request = urllib.request.Request(base + "/api/auth/login", body, {"Content-Type": "application/json"})
    start = time.perf_counter()
    urllib.request.urlopen(request).read()
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"login latency ms: median {statistics.median(times):.1f}, p90 {times[int(len(times) * 0.9) - 1]:.1f}, min {times[0]:.1f}, max {times[-1]:.1f}")
PY

echo "== /api/health while 4 logins hash at cost 12 (separate connections)"
logins_in_flight=()
for _ in 1 2 3 4; do
    curl -s -o /dev/null "$base/api/auth/login" -H 'Content-Type: application/json' \
        -d '{"email":"admin@acme.test","password":"wrong password"}' &
    logins_in_flight+=($!)
done
sleep 0.05
for _ in $(seq 10); do curl -s -o /dev/null -w '%{time_total}\n' "$base/api/health"; done \
    | python3 -c "import sys,statistics; t=[float(x)*1000 for x in sys.stdin]; print(f'health during hashing ms: median {statistics.median(t):.2f}, max {max(t):.2f}')"
wait "${logins_in_flight[@]}"

echo "== signing in for a token"
user_id=$(curl -s "$base/api/auth/login" -H 'Content-Type: application/json' -d "$login_body" | json '["data"]["userId"]')
curl -s "$base/api/auth/2fa/request" -H 'Content-Type: application/json' \
    -d "{\"userId\":\"$user_id\",\"email\":\"admin@acme.test\"}" >/dev/null
# The code is the first mail in the outbox; the mail worker writes it just after the answer.
for _ in $(seq 100); do
    code=$(.build/release/repairminder outbox --data-dir "$data" --last 1 --json | json '["text"]' 2>/dev/null | grep -oE '[0-9]{6}' | head -1 || true)
    [ -n "$code" ] && break
    sleep 0.1
done
token=$(curl -s "$base/api/auth/2fa/verify" -H 'Content-Type: application/json' \
    -d "{\"userId\":\"$user_id\",\"code\":\"$code\"}" | json '["data"]["token"]')

echo "== GET /api/auth/me: wrk, 2 threads, $connections connections, ${seconds}s"
wrk -t2 -c"$connections" -d"${seconds}s" -H "Authorization: Bearer $token" "$base/api/auth/me"
echo "== GET /api/health for comparison"
wrk -t2 -c"$connections" -d"${seconds}s" "$base/api/health"
