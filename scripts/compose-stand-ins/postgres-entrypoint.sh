#!/bin/sh
# The stand-in postgres image's entrypoint (postgres.Containerfile): what the official image's does
# for compose.yaml. As root it makes PGDATA the postgres user's and runs itself again as that user;
# on the first start (no PG_VERSION in PGDATA) it makes the cluster, with POSTGRES_USER as its
# superuser (password POSTGRES_PASSWORD) and the database POSTGRES_DB; then it runs the command.
set -eu

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set on the first start}"
  user="${POSTGRES_USER:-postgres}"
  database="${POSTGRES_DB:-$user}"
  password_file="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8
  rm -f "$password_file"
  # Other containers (the site) reach it over the compose network, with a password.
  printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  if [ "$database" != postgres ]; then
    # Started on its socket only, so nothing connects before the database is there.
    pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait start
    psql --no-psqlrc --set=ON_ERROR_STOP=1 --username="$user" --dbname=postgres \
      --command="CREATE DATABASE \"$database\""
    pg_ctl --pgdata="$PGDATA" --mode=fast --wait stop
  fi
  echo "PostgreSQL $(postgres --version | awk '{print $3}') initialised in $PGDATA for $user, database $database."
fi

exec "$@"
