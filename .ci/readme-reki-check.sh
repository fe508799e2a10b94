#!/usr/bin/env bash
# Runs the REKI walk-through of docs/walkthrough.md ("REKI: the second app's contract") exactly as written,
# against a fresh `serve --demo`, and checks what it printed.
# Usage: .ci/readme-reki-check.sh path/to/repairminder
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --demo --data-dir "$dir" --port "$port" > "$dir/serve.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null; wait $server 2> /dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/api/health" > /dev/null && break
    sleep 0.1
done

walkthrough=$(python3 - << 'PYTHON'
import re, pathlib
readme = pathlib.Path("docs/walkthrough.md").read_text()
section = readme.split("## REKI: the second app's contract", 1)[1]
print(re.search(r"```sh\n(.*?)```", section, re.S).group(1))
PYTHON
)
# The walk-through's `B` is the server it talks to; its `repairminder outbox` reads this
# server's data directory through the setting's environment twin.
output=$(B="http://127.0.0.1:$port" REPAIRMINDER_DATA_DIR="$dir" bash -euo pipefail -c "$walkthrough" 2>&1) || {
    echo "$output"
    exit 1
}
echo "$output"
check() {
    grep -qF -- "$1" <<< "$output" || { echo "!! the README's REKI walk-through did not print: $1"; exit 1; }
}
check '"refresh_token"'
check '"email":"test@example.com"'
check '{"message":"success"}'
check '"message":"Unauthorized"'
check '"statusCode":401'
check '{"message":"If the email exists, a password reset link has been sent"}'
[[ $(tail -1 <<< "$output") == *'"access_token"'* ]] || { echo "!! the final login did not sign in"; exit 1; }
echo "docs/walkthrough.md's REKI walk-through: OK"
