#!/usr/bin/env bash
# A private PostgreSQL server for the tests, apart from any cluster the Debian package runs.
#
#   scripts/postgres.sh start [DATA_DIR]   start it (or find it running); prints the admin URL
#   scripts/postgres.sh stop  [DATA_DIR]   stop it, if it runs
#   scripts/postgres.sh url   [DATA_DIR]   print the admin URL
#
# DATA_DIR defaults to $BUNSEKI_POSTGRES_DIR, else /tmp/bunseki-postgres-<uid>; the port to
# $BUNSEKI_POSTGRES_PORT, else 54329. The server listens on 127.0.0.1 and on a Unix socket in
# DATA_DIR, and trusts every local connection: it holds nothing but throwaway test databases.
# initdb and postgres refuse to run as root, so as root they run as the `postgres` system user.
# Only the URL goes to stdout, so that `url=$(scripts/postgres.sh start)` works.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|url [DATA_DIR]" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
action=$1
datadir=$(realpath -m "${2:-${BUNSEKI_POSTGRES_DIR:-/tmp/bunseki-postgres-$(id -u)}}")
port=${BUNSEKI_POSTGRES_PORT:-54329}
url="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"

# The newest installed major version of Debian's binaries (they are not on PATH).
bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$dir" ]; then
    echo "postgres.sh: PostgreSQL is not installed; run: sudo apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "$dir"
}

# Run a PostgreSQL program as the data directory's owner: `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() {
  [ -f "$datadir/PG_VERSION" ] && as_owner "$bin/pg_ctl" status -D "$datadir" >/dev/null 2>&1
}

initialise() {
  if [ "$(id -u)" = 0 ]; then
    install -d -m 700 -o postgres -g postgres "$datadir"
  else
    install -d -m 700 "$datadir"
  fi
  echo "postgres.sh: creating a cluster in $datadir" >&2
  as_owner "$bin/initdb" -D "$datadir" -U postgres --auth=trust --encoding=UTF8 --locale=C >/dev/null
  # Throwaway data: durability only costs time here.
  as_owner tee -a "$datadir/postgresql.conf" >/dev/null <<EOF

# scripts/postgres.sh
listen_addresses = '127.0.0.1'
unix_socket_directories = '$datadir'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

start() {
  if running; then
    # Line 4 of postmaster.pid is the port it really listens on, whatever we were told now.
    echo "postgresql+psycopg://postgres@127.0.0.1:$(sed -n 4p "$datadir/postmaster.pid")/postgres"
    return
  fi
  [ -f "$datadir/PG_VERSION" ] || initialise
  # pg_ctl waits (-w) until the server accepts connections, or reports why it did not.
  if ! as_owner "$bin/pg_ctl" start -D "$datadir" -l "$datadir/server.log" -o "-p $port" -w -t 60 >&2; then
    echo "postgres.sh: the server did not start; the end of $datadir/server.log:" >&2
    tail -n 20 "$datadir/server.log" >&2 || true
    exit 1
  fi
  echo "$url"
}

stop() {
  if running; then
    as_owner "$bin/pg_ctl" stop -D "$datadir" -m fast -w >&2
  else
    echo "postgres.sh: no server runs in $datadir" >&2
  fi
}

# The postgres user may not be able to enter the directory we were started from.
cd /
case $action in
  start) bin=$(bindir); start ;;
  stop) bin=$(bindir); stop ;;
  url) echo "$url" ;;
  *) usage ;;
esac
