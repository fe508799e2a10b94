#!/usr/bin/env bash
# The OpenID Connect token endpoint (docs/API.md §16.4, issue 53): the code exchange and the
# refresh through POST /oauth/token beside POST /api/auth/refresh, requests/s with p50 and p99,
# the median of 3 rounds; and one RS256 signature's cost here (openssl speed).
# Usage: Benchmarks/oauth.sh [--rounds 3] [--seconds 10] [--connections 16] [--binary PATH]
# Builds `repairminder` in release mode unless --binary is given; needs wrk (Debian's package).
exec python3 "$(dirname "$0")/OAuth/measure.py" "$@"
