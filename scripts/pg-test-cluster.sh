#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the ledger tests (sourced by .ci/run).
#   source scripts/pg-test-cluster.sh   -> starts it, exports JXMJ_TEST_PG, traps EXIT to drop it
# Installs Debian's postgresql when missing (as root). The cluster listens on a Unix socket in a
# private folder and a free local port, trusts local connections, and is dropped on exit.
set -euo pipefail

_jxmj_pg_fail() { echo "pg-test-cluster: $*" >&2; return 1; }

if ! command -v pg_createcluster >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || _jxmj_pg_fail "postgresql is not installed and this is not root"
    echo "pg-test-cluster: installing Debian's postgresql" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq postgresql >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null && apt-get install -y -qq postgresql >/dev/null; } \
        || _jxmj_pg_fail "apt-get install postgresql failed"
fi
JXMJ_PG_VERSION=$(ls /usr/lib/postgresql | sort -n | tail -1)
JXMJ_PG_NAME="jxmjtest$$"
JXMJ_PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
JXMJ_PG_SOCK=$(mktemp -d /tmp/jxmj-pg.XXXXXX)
chown postgres:postgres "$JXMJ_PG_SOCK"

jxmj_pg_stop() {
    pg_dropcluster --stop "$JXMJ_PG_VERSION" "$JXMJ_PG_NAME" >/dev/null 2>&1 || true
    rm -rf "$JXMJ_PG_SOCK"
}
trap jxmj_pg_stop EXIT

# initdb refuses root: pg_createcluster runs it as the postgres user
pg_createcluster "$JXMJ_PG_VERSION" "$JXMJ_PG_NAME" -p "$JXMJ_PG_PORT" \
    -o "unix_socket_directories=$JXMJ_PG_SOCK" -o "listen_addresses=localhost" -o "fsync=off" \
    -- --auth-local=trust --auth-host=trust >/dev/null
pg_ctlcluster "$JXMJ_PG_VERSION" "$JXMJ_PG_NAME" start
runuser -u postgres -- createdb -h "$JXMJ_PG_SOCK" -p "$JXMJ_PG_PORT" jxmj_test
export JXMJ_TEST_PG="postgresql+psycopg://postgres@/jxmj_test?host=$JXMJ_PG_SOCK&port=$JXMJ_PG_PORT"
echo "pg-test-cluster: PostgreSQL $JXMJ_PG_VERSION cluster $JXMJ_PG_NAME on port $JXMJ_PG_PORT (JXMJ_TEST_PG set)" >&2
