#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for the tests (the
# store's tests in both dialects, the several-workers test). Prints the
# environment the tests read; `eval "$(scripts/postgres.sh start DIR)"`.
#   scripts/postgres.sh start DIR   initdb in DIR, start, print the export
#   scripts/postgres.sh stop DIR    stop it
# Port: UMPIRE_PG_PORT (default: a free port found here). PostgreSQL
# refuses to run as root, so as root the server runs as the `postgres`
# user (the Debian package makes it). Where PostgreSQL is not installed
# this says so on stderr and prints nothing (the tests then run SQLite
# only); under CI (CI=true) that is an error: .ci/run installs it.
set -euo pipefail
cmd=${1:-start}
dir=$(realpath -m "${2:-/tmp/umpire-pg}")

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
as_server() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/bash -c "$1"
  else
    bash -c "$1"
  fi
}

if [ "$cmd" = stop ]; then
  if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
    as_server "$bin/pg_ctl -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
  fi
  exit 0
fi

if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "${CI:-}" = true ]; then
    echo "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): CI must test it; .ci/run installs it" >&2
    exit 1
  fi
  echo "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): the store's tests run on SQLite only" >&2
  exit 0
fi

. "$(dirname "$0")/ports.sh"
port=${UMPIRE_PG_PORT:-$(free_port)}
if up "$port"; then
  echo "port $port is already taken; set UMPIRE_PG_PORT" >&2
  exit 1
fi

mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
# C locale: text sorts byte by byte, as in SQLite. fsync off: a test
# server's data need not survive a power failure.
as_server "$bin/initdb -D '$dir/data' -A trust -U umpire -E UTF8 --locale=C >'$dir/initdb.log' 2>&1" \
  || { echo "initdb failed: see $dir/initdb.log" >&2; exit 1; }
as_server "$bin/pg_ctl -D '$dir/data' -l '$dir/server.log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" start >/dev/null" \
  || { echo "PostgreSQL did not start: see $dir/server.log" >&2; exit 1; }
for _ in $(seq 1 100); do
  if up "$port"; then break; fi
  sleep 0.1
done
up "$port" || { echo "PostgreSQL did not start: see $dir/server.log" >&2; exit 1; }
echo "export UMPIRE_TEST_POSTGRES=postgres://umpire@127.0.0.1:$port/postgres"
