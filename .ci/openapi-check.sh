#!/usr/bin/env bash
# Checks the OpenAPI document against the live server (issue 11): the document validates as
# OpenAPI 3.1, and schemathesis finds no 5xx and no response that strays from the document on
# any operation. Usage: .ci/openapi-check.sh path/to/repairminder
set -euo pipefail
binary=${1:?usage: $0 path/to/repairminder}
port=${OPENAPI_CHECK_PORT:-18480}
base="http://127.0.0.1:$port"
here=$(cd "$(dirname "$0")" && pwd)

python3 -c "import openapi_spec_validator" 2>/dev/null || python3 -m pip install --quiet "openapi-spec-validator==0.9.0"
# Run from python3's own scripts folder: pyenv's shims may not know a freshly installed script.
schemathesis="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/schemathesis"
[ -x "$schemathesis" ] || python3 -m pip install --quiet "schemathesis==4.32.5"

data_dir=$(mktemp -d)
# Limits off, so generated requests reach the logic behind each route instead of 429s.
"$binary" serve --demo --data-dir "$data_dir" --port "$port" \
    --ip-rate-limit 0 --login-failure-limit 0 --code-resend-interval 0 --code-emails-per-hour 0 \
    > "$data_dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data_dir"' EXIT
for _ in $(seq 60); do curl -sf "$base/api/health" > /dev/null && break; sleep 1; done
curl -sf "$base/api/health" > /dev/null || { echo "the server did not start:"; cat "$data_dir/server.log"; exit 1; }

echo "-- the document validates (openapi-spec-validator)"
curl -sf "$base/api/openapi.json" -o "$data_dir/openapi.json"
python3 -m openapi_spec_validator "$data_dir/openapi.json"

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
run_schemathesis() {  # token, then extra arguments
    local token=$1
    shift
    # Bounded by examples per operation (a --max-time would make fuzzing repeat until it is
    # spent); `timeout` only guards against a hang.
    timeout 600 "$schemathesis" run "$base/api/openapi.json" -H "Authorization: Bearer $token" --checks "$checks" \
        --request-timeout 10 --workers 2 --seed 11 --no-color "$@"
}

echo "-- schemathesis: every operation but logout, as the demo admin"
run_schemathesis "$(python3 "$here/staff-token.py" "$base" "$data_dir")" --max-examples 100 --exclude-path /api/auth/logout
echo "-- schemathesis: logout last, with a session of its own (it ends the session it is called with)"
run_schemathesis "$(python3 "$here/staff-token.py" "$base" "$data_dir")" --max-examples 20 --include-path /api/auth/logout
