#!/usr/bin/env bash
# Usage: .ci/watchdog.sh SECONDS COMMAND [ARG...]
# Runs COMMAND with standard input from /dev/null (nothing it starts can wait on CI's input).
# If it is still running after SECONDS, prints every process it started, with its age and
# arguments (which test was stuck, and on what), stops them all, and runs COMMAND once more:
# a CI run that hung once still says where, and a second hang fails the run.
set -uo pipefail
limit=$1
shift

attempt() {
    setsid "$@" < /dev/null &
    local pid=$! waited=0
    while kill -0 "$pid" 2> /dev/null; do
        if ((waited >= limit)); then
            echo "!! watchdog: '$*' still running after ${limit} s; its processes:"
            ps -o pid,ppid,etimes,stat,args --forest -g "$pid" || true
            kill -TERM -- "-$pid" 2> /dev/null
            sleep 5
            kill -KILL -- "-$pid" 2> /dev/null
            wait "$pid" 2> /dev/null
            return 124
        fi
        sleep 1
        waited=$((waited + 1))
    done
    wait "$pid"
}

attempt "$@"
status=$?
if ((status == 124)); then
    echo "!! watchdog: running '$*' once more"
    attempt "$@"
    status=$?
fi
exit "$status"
