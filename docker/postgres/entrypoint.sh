#!/bin/sh
# First start: a cluster in $PGDATA with the role and database the environment names; then the
# server, in the foreground, for every address (the compose network; nothing is published).
set -eu
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    "$bin/initdb" -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust \
        --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
    echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "host all all ::/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
        "$bin/postgres" -D "$PGDATA" -c listen_addresses='' &
        pid=$!
        until "$bin/pg_isready" -q -h /var/run/postgresql; do sleep 0.2; done
        "$bin/psql" -h /var/run/postgresql -U "$user" -d postgres -q -c "CREATE DATABASE \"$db\""
        kill -INT "$pid"
        wait "$pid" || true
    fi
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
