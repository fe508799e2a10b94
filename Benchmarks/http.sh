#!/usr/bin/env bash
# The authenticated request path against the framework's own ceiling (issue 18), in one run:
#   GET /api/health, GET /api/auth/me, POST /api/auth/refresh (16 sessions rotating), and a
#   login storm (4 connections, bcrypt at the server's cost) with /api/health's latency sampled
#   during it; requests/s, each figure's ratio to health, p50 and p99 latency; the median of 3
#   rounds; and the server's peak resident memory.
# Usage: Benchmarks/http.sh [--rounds 3] [--seconds 10] [--connections 16] [--binary PATH]
#                           [--jwt-algorithm ES256|EdDSA|HS256]
# Builds `repairminder` in release mode unless --binary is given; needs wrk (Debian's package).
exec python3 "$(dirname "$0")/HTTP/measure.py" "$@"
