#!/usr/bin/env bash
# Checks the OpenAPI document against the live server (issue 11):
#   1. GET /api/openapi.json validates as OpenAPI 3.1 (openapi-spec-validator), and
#   2. schemathesis finds no 5xx and no response that strays from the document (status code,
#      content type, headers, body schema) on any operation, signed in as the demo admin for
#      staff operations and as a demo customer for customer operations; every request the
#      document calls valid is taken (positive_data_acceptance, and our valid_input_is_not_bad_input
#      in .ci/schemathesis_hooks.py) and every one it calls invalid is refused (negative_data_rejection).
# Usage: .ci/openapi-check.sh path/to/repairminder   (the built binary: this script builds nothing)
# Knobs (environment): OPENAPI_CHECK_PORT (a free one), OPENAPI_CHECK_MAX_EXAMPLES (100 per operation),
# OPENAPI_CHECK_SEED (11), OPENAPI_CHECK_TIMEOUT (300 s hard cap per schemathesis run), SERVE_FLAGS.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
binary=${1:?usage: $0 path/to/repairminder}
[ -x "$binary" ] || { echo "not an executable: $binary" >&2; exit 2; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")  # absolute: we cd away below
# A free loopback port unless one is given (another engineer's check may hold 18480).
port=${OPENAPI_CHECK_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
base="http://127.0.0.1:$port"
max_examples=${OPENAPI_CHECK_MAX_EXAMPLES:-100}
seed=${OPENAPI_CHECK_SEED:-11}
run_timeout=${OPENAPI_CHECK_TIMEOUT:-300}

# ---- SERVE_FLAGS: extra `serve` flags. Every limit off, so generated requests reach the logic
# behind each route instead of piling up 429s (schemathesis sends hundreds of sign-in attempts).
# bcrypt cost 4 (the minimum): every generated sign-in hashes a password, and at the default 12
# that alone triples the run (about 140 s instead of 45 s here); the check is about the contract.
SERVE_FLAGS=${SERVE_FLAGS-"--ip-rate-limit 0 --login-failure-limit 0 --second-factor-failure-limit 0 --wrong-code-limit 0 --code-resend-interval 0 --code-emails-per-hour 0 --code-request-min-ms 0 --passkey-enrolments-per-minute 0 --invitations-per-day 0 --bcrypt-cost 4"}
read -r -a serve_flags <<< "$SERVE_FLAGS"

# ---- Tools, pinned: schemathesis 4.x changes its CLI and config between minor versions.
export PIP_DISABLE_PIP_VERSION_CHECK=1
installed() { python3 -c "from importlib.metadata import version; assert version('$1') == '$2'" 2>/dev/null; }
installed openapi-spec-validator 0.9.0 || python3 -m pip install --quiet "openapi-spec-validator==0.9.0"
installed schemathesis 4.32.5 || python3 -m pip install --quiet "schemathesis==4.32.5"

# ---- Everything this run writes lives in one temporary directory, which is also the working
# directory of the Python tools: schemathesis and Hypothesis drop .schemathesis/ and .hypothesis/
# into the current directory, and `python3 -m` puts it first on sys.path (so no stray *.py there).
work=$(mktemp -d)
data_dir="$work/data"
mkdir "$data_dir"
cd "$work"
export NO_PROXY="127.0.0.1,localhost" no_proxy="127.0.0.1,localhost"  # loopback only, never a proxy

# Whatever answers on the port must be the server started here, not a leftover one.
if curl -s -o /dev/null "$base/api/health"; then echo "port $port is already in use" >&2; exit 2; fi
"$binary" serve --demo --data-dir "$data_dir" --port "$port" "${serve_flags[@]}" > "$work/server.log" 2>&1 &
server=$!
cleanup() {
    # SIGTERM lets the server finish requests in flight; SIGKILL if it is still up after 10 s.
    kill "$server" 2>/dev/null || true
    for _ in $(seq 10); do kill -0 "$server" 2>/dev/null || break; sleep 1; done
    kill -9 "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # run the EXIT trap on Ctrl-C or a CI kill too

for _ in $(seq 60); do
    curl -sf "$base/api/health" > /dev/null && break
    kill -0 "$server" 2>/dev/null || break  # it died: no point waiting
    sleep 1
done
if ! kill -0 "$server" 2>/dev/null || ! curl -sf "$base/api/health" > /dev/null; then
    echo "the server did not start:"; cat "$work/server.log"; exit 1
fi

echo "-- the document validates (openapi-spec-validator)"
curl -sf "$base/api/openapi.json" -o "$work/openapi.json"
python3 -m openapi_spec_validator "$work/openapi.json"

echo "-- every pattern of the document compiles in Python's re and as ECMA-262 without the u flag (node, where installed)"
python3 - "$work/openapi.json" "$work/patterns.json" <<'PY'
import json, re, sys
patterns = set()
def walk(value):
    if isinstance(value, dict):
        if isinstance(value.get("pattern"), str): patterns.add(value["pattern"])
        for member in value.values(): walk(member)
    elif isinstance(value, list):
        for member in value: walk(member)
walk(json.load(open(sys.argv[1])))
for pattern in patterns: re.compile(pattern)
json.dump(sorted(patterns), open(sys.argv[2], "w"))
print(f"{len(patterns)} patterns")
PY
if command -v node > /dev/null; then
    node -e 'for (const p of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) new RegExp(p)' "$work/patterns.json"
fi

# ---- Sign in through the API as the demo admin, or the demo platform administrator (password, then
# the emailed second factor), as
# the demo customer jane@example.test (emailed code; she has one shop, so verify-code returns the
# token directly), and as a REKI user (registered on first use). The codes are read from the
# server's development outbox.
sign_in() {  # staff|customer|reki -> prints an access token
    python3 - "$base" "$data_dir/outbox.jsonl" "$1" <<'PY'
import json, re, sys, time, urllib.error, urllib.request

base, outbox, who = sys.argv[1:4]

def post(path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        envelope = json.load(response)
    assert envelope.get("success") is True, f"{path}: {envelope}"
    return envelope.get("data") or {}

def mail():
    try:
        with open(outbox) as lines:
            return [json.loads(line) for line in lines if line.strip()]
    except FileNotFoundError:
        return []

def emailed_code(to, seen):
    # The first mail to `to` after the `seen` already in the outbox: schemathesis signs in with the
    # document's examples (the demo accounts) too, so the last mail is not always ours. The
    # server's mail worker delivers it just after the request is answered: wait for it (10 s).
    for _ in range(200):
        ours = [m for m in mail()[seen:] if m["to"] == to]
        if ours:
            return re.search(r"\b\d{6}\b", ours[0]["text"]).group(0)
        time.sleep(0.05)
    sys.exit(f"no code was mailed to {to}")

def post_plain(path, body):
    # REKI's answers are plain JSON (docs/API.md §10); None for a 4xx.
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError:
        return None

if who == "reki":
    account = {"email": "schemathesis@reki.test", "password": "violet kettle 1987"}
    answer = post_plain("/auth/register", account) or post_plain("/auth/login", account)
    print(answer["access_token"])
elif who in ("staff", "platform"):
    # The demo platform administrator's company requires a passkey, with 30 days to enrol one
    # (docs/API.md §13.3): within them the session is a full one, as the shop admin's.
    email, password = (("admin@acme.test", "correct horse battery") if who == "staff"
                       else ("platform@repairminder.test", "platform password"))
    user_id = post("/api/auth/login", {"email": email, "password": password})["userId"]
    seen = len(mail())
    post("/api/auth/2fa/request", {"userId": user_id, "email": email})
    print(post("/api/auth/2fa/verify", {"userId": user_id, "code": emailed_code(email, seen)})["token"])
else:
    email = "jane@example.test"
    seen = len(mail())
    post("/api/customer/auth/request-magic-link", {"email": email})
    print(post("/api/customer/auth/verify-code", {"email": email, "code": emailed_code(email, seen)})["token"])
PY
}

restore_demo_customer() {  # staff token -> jane@example.test a live client of Acme again, her portal on
    python3 - "$base" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request

base, token = sys.argv[1:3]
def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response).get("data")

email = "jane@example.test"
found = [c for c in call("GET", "/api/clients/search?q=" + urllib.parse.quote(email)) if c["email"] == email]
if not found:
    call("POST", "/api/clients", {"email": email, "firstName": "Jane", "lastName": "Customer"})
elif found[0]["portal_enabled"] != 1:
    call("PATCH", f"/api/clients/{found[0]['id']}", {"portalEnabled": True})
PY
}

# ---- schemathesis configuration, written from the document: each bearer security scheme gets the
# matching token (customer* -> the customer's, reki* -> the REKI user's, any other -> the admin's), so every operation is
# exercised past its authentication and schemathesis still sends its own broken tokens as negative
# cases. Tokens stay in the environment (${...} is expanded by schemathesis), never on disk.
# An operation that demands a token and answered nothing but 401/403 fails the run (missing_auth):
# otherwise a token revoked mid-run would turn into a quiet pass. The crash cache and the example
# database are off: nothing survives the run.
python3 - "$work/openapi.json" > "$work/schemathesis.toml" <<'PY'
import json, sys

document = json.load(open(sys.argv[1]))
schemes = document.get("components", {}).get("securitySchemes", {})
print("[cache]\nenabled = false\n\n[generation]\ndatabase = \"none\"\n")
for name, scheme in schemes.items():
    if scheme.get("type") == "http" and scheme.get("scheme", "").lower() == "bearer":
        kind = name.lower()
        token = "CUSTOMER_TOKEN" if kind.startswith("customer") else "REKI_TOKEN" if kind.startswith("reki") else "STAFF_TOKEN"
        print(f'[auth.openapi.{json.dumps(name)}]\nbearer = "${{{token}}}"\n')
secured = sorted(
    operation["operationId"]
    for item in document.get("paths", {}).values()
    for operation in item.values()
    if isinstance(operation, dict) and "operationId" in operation
    and operation.get("security", document.get("security")))
# REKI's account deletion (DELETE /auth/me) checks the password before anything else, and no
# password it is sent is the run's REKI user's (its example's is not, so the run keeps the user):
# 401 "Invalid credentials" is its every answer, not a token lost mid-run.
secured = [operation for operation in secured if operation != "deleteAuthMe"]
if secured:
    print(f'[[operations]]\ninclude-operation-id = {json.dumps(secured)}\nwarnings = {{ fail-on = ["missing_auth"] }}\n')
# An operation whose documented 400 carries a code of its own (WEAK_PASSWORD, INVALID_CODE, ...)
# may rightly answer it to a schema-valid request: positive_data_acceptance expects 400 there too
# (valid_input_is_not_bad_input still refuses VALIDATION_ERROR and INVALID_JSON for valid data).
bad_input = {"INVALID_JSON", "VALIDATION_ERROR"}
business_400 = sorted(
    operation["operationId"]
    for item in document.get("paths", {}).values()
    for operation in item.values()
    if isinstance(operation, dict) and "operationId" in operation
    and (set(operation.get("responses", {}).get("400", {}).get("description", "").split(", ")) - bad_input - {""}
         # A rule beyond the schema (the server's own lifetimes) may refuse schema-valid data as
         # bad input; valid_input_is_not_bad_input lets that one kind through for these operations.
         or operation.get("x-input-rule-beyond-schema")))
if business_400:
    statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
    print(f'[[operations]]\ninclude-operation-id = {json.dumps(business_400)}\n'
          f'checks.positive_data_acceptance.expected-statuses = {json.dumps(statuses)}\n')
PY

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
checks+=,positive_data_acceptance,negative_data_rejection,valid_input_is_not_bad_input
export SCHEMATHESIS_HOOKS="$here/schemathesis_hooks.py"
# Operations that can end the session they are called with run after the others, each group with
# tokens of its own: revoking a session (alone, so no sessions list hands it the current id),
# then an admin's sign-out of a member (which, given the admin's own id from the members list,
# ends the caller's sessions too), then the shop's security policy (which can restrict the demo
# admin's sessions to enrolment, docs/API.md §13.3), then logout, then the platform's administration
# (below). The shop's clients run before the
# policy (a restricted admin reaches none of them), and can delete or switch off the demo customer
# every run signs in as (docs/API.md §14): she is restored after them.
session_revokers=(--include-path-regex '/api/auth/sessions/')
member_sign_outs=(--include-path-regex '/sign-out$' --exclude-path-regex '^/api/admin/')
policy=(--include-path-regex '/security-policy$')
session_enders=(--include-path-regex '/logout$')
clients=(--include-path-regex '^/api/clients')
platform_admin=(--include-path-regex '^/api/admin/' --exclude-path-regex '/sign-out$')
platform_sign_outs=(--include-path-regex '^/api/admin/.*/sign-out$')
# Deleting one's own account (docs/API.md §9.5) ends the demo accounts for good: last of all.
# (The staff example's password is not the demo admin's, and the demo admin is Acme's last
# admin; the demo customer is deleted by the first valid call.)
account_deleters=(--include-path-regex '/auth/me$')
others=(--exclude-path-regex '/logout$|/sign-out$|/api/auth/sessions/|/security-policy$|^/api/clients|^/api/admin/|/auth/me$')

run_schemathesis() {  # label, then filter arguments; STAFF_AS=platform signs staff in as the platform admin
    local label=$1 started=$SECONDS status=0
    shift
    echo "-- schemathesis: $label"
    # Fresh sessions for each run (set -e stops the script if a sign-in fails).
    STAFF_TOKEN=$(sign_in "${STAFF_AS:-staff}")
    CUSTOMER_TOKEN=$(sign_in customer)
    REKI_TOKEN=$(sign_in reki)
    export STAFF_TOKEN CUSTOMER_TOKEN REKI_TOKEN
    timeout "$run_timeout" python3 -m schemathesis.cli --config-file "$work/schemathesis.toml" \
        run "$base/api/openapi.json" \
        --url "$base" \
        --checks "$checks" \
        --max-examples "$max_examples" --seed "$seed" \
        --workers 2 --request-timeout 10 --no-color \
        "$@" || status=$?
    # 0: nothing found; 1: a check failed (or a fail-on warning); 2: the run could not do its job
    # (schema, configuration, or no operation selected); 124: killed by `timeout`.
    summary+=("$label: exit $status in $((SECONDS - started)) s")
    [ "$status" -eq 0 ] || failed=1
}

summary=()
failed=0
run_schemathesis "every operation but the session enders" "${others[@]}"
run_schemathesis "revoking a session" "${session_revokers[@]}"
run_schemathesis "signing a member out" "${member_sign_outs[@]}"
run_schemathesis "the shop's clients" "${clients[@]}"
restore_demo_customer "$(sign_in staff)"
run_schemathesis "the shop's security policy" "${policy[@]}"
run_schemathesis "logout, last" "${session_enders[@]}"
# The platform's administration (docs/API.md §15) needs a master_admin of the platform's own
# company: the demo's platform administrator, whose sessions the groups before never touched
# (the shop admin's policy changes are Acme's alone). Last, as it may suspend the demo shops.
STAFF_AS=platform run_schemathesis "platform administration" "${platform_admin[@]}"
# Given the administrator's own id from the users list, a sign-out ends the caller's sessions too.
STAFF_AS=platform run_schemathesis "a platform administrator's sign-out" "${platform_sign_outs[@]}"
run_schemathesis "deleting one's account, last" "${account_deleters[@]}"

echo "-- OpenAPI check summary"
echo "document: valid OpenAPI $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["openapi"])' "$work/openapi.json")"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
    echo "server log (last 40 lines):"
    tail -n 40 "$work/server.log"
    exit 1
fi
