#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the tests and prints its admin URL on the last line.
#
#   url=$(bash .ci/postgres.sh start /tmp/rm-pg)   # installs Debian's postgresql if needed
#   REPAIRMINDER_TEST_POSTGRES_URL=$url swift test
#   bash .ci/postgres.sh stop /tmp/rm-pg
#
# `pause DIRECTORY` stops the server and keeps its data; `resume DIRECTORY` starts it again on
# the same port (an outage, for the tests of what clients meet meanwhile).
#
# PostgreSQL refuses to run as root, so the cluster belongs to the unprivileged `postgres`
# user (created by the package). It listens on 127.0.0.1 only, on a free port, with trust
# authentication for loopback and fsync off: it holds nothing but test data. A third
# argument, `durable`, keeps PostgreSQL's default durability (fsync, synchronous commit), for
# benchmarks whose numbers must mean what they would in production.
set -euo pipefail

action=${1:?usage: postgres.sh start|stop DIRECTORY}
dir=${2:?usage: postgres.sh start|stop DIRECTORY}
durability=${3:-fast}

bin_dir() {
    local initdb
    initdb=$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1 || true)
    [ -n "$initdb" ] && dirname "$initdb"
}

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
start)
    if [ -z "$(bin_dir)" ]; then
        echo "installing PostgreSQL (Debian's postgresql package)" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    fi
    bin=$(bin_dir)
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
        id postgres > /dev/null 2>&1 || useradd --system --home-dir "$dir" postgres
        chown postgres: "$dir"
    fi
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale > "$dir/initdb.log"
    options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=1000"
    if [ "$durability" != durable ]; then
        options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start -o "$options" >&2
    echo "$port" > "$dir/port"
    echo "$options" > "$dir/options"
    echo "postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
    ;;
pause)
    as_postgres "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w stop >&2
    ;;
resume)
    as_postgres "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start -o "$(cat "$dir/options")" >&2
    ;;
stop)
    bin=$(bin_dir)
    [ -d "$dir/data" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres.sh start|stop|pause|resume DIRECTORY [durable]" >&2
    exit 2
    ;;
esac
