#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `start DIR PORT` makes a cluster in DIR (trust
# auth, loopback only, its socket in DIR) and prints its URL; `stop DIR` stops it and deletes DIR.
# Installs Debian's postgresql package when no server is on the machine (needs root and apt).
# initdb refuses to run as root: as root, the cluster belongs to the `postgres` user.
set -euo pipefail
command="${1:?usage: throwaway-postgres.sh start DIR PORT | stop DIR}"
dir="${2:?the cluster directory}"

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [ -z "$found" ] && command -v pg_ctl >/dev/null; then
    found="$(dirname "$(command -v pg_ctl)")"
  fi
  echo "$found"
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$command" in
  start)
    port="${3:?the port}"
    bin="$(bindir)"
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "-- installing Debian's postgresql package" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
        bin="$(bindir)"
      fi
    fi
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
      echo "-- no PostgreSQL server can be installed here" >&2
      exit 1
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
      chown postgres "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o \
      "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin="$(bindir)"
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: throwaway-postgres.sh start DIR PORT | stop DIR" >&2
    exit 2
    ;;
esac
