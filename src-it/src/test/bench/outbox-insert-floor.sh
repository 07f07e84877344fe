#!/usr/bin/env bash
# The floor of capture overhead without a server: what one outbox INSERT adds to a one-row update transaction, with
# PostgreSQL and pgbench alone (docs/benchmarks.md, "What bounds capture overhead").
#
# Needs psql and pgbench (Debian: postgresql-client) and a PostgreSQL it may create a database in, named by the usual
# libpq variables (PGHOST, PGPORT, PGUSER, PGPASSWORD). It creates the database outbox_floor, applies the product's
# schema (V1 to V7, as a fresh install gets it) and a table like the demo's store_order, then runs the plain and the
# streamed transaction alternately, ROUNDS times each (3), SECONDS long (6), with 1 client and with 4, first with the
# product's outbox indexes and then with the primary key only. It prints transactions per second; drops the database.
set -euo pipefail
export PGOPTIONS="-c client_min_messages=warning"
here="$(cd "$(dirname "$0")" && pwd)"
schema_dir="$here/../../../../streams-ejb/src/main/resources/io/objectstreams/internal/schema"
rounds=${ROUNDS:-3}
seconds=${SECONDS_EACH:-6}
db=outbox_floor
work=$(mktemp -d)
trap 'rm -rf "$work"; psql -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT

psql -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
{
  echo "BEGIN;"
  echo "CREATE TABLE streams_schema_history (version integer PRIMARY KEY, description text NOT NULL,"
  echo "    applied_at timestamptz NOT NULL DEFAULT now());"
  for v in 1 2 3 4 5 6 7; do cat "$schema_dir"/V${v}__*.sql; echo ";"; done
  echo "CREATE TABLE store_order (id bigint PRIMARY KEY, note text, owner text, status text, total numeric);"
  echo "INSERT INTO store_order SELECT g, 'n', 'alice', 'open', 10 FROM generate_series(1, 1000) g;"
  echo "COMMIT;"
} > "$work/schema.sql"
psql -q -d $db -v ON_ERROR_STOP=1 -f "$work/schema.sql" >/dev/null

cat > "$work/plain.sql" <<'SQL'
\set id random(1, 1000)
BEGIN;
SELECT id, note, owner, status, total FROM store_order WHERE id = :id;
UPDATE store_order SET note = md5(random()::text) WHERE id = :id;
COMMIT;
SQL
# The streamed transaction adds the row OutboxWriter.INSERT_ONE writes for such an update.
cat > "$work/streamed.sql" <<'SQL'
\set id random(1, 1000)
BEGIN;
SELECT id, note, owner, status, total FROM store_order WHERE id = :id;
UPDATE store_order SET note = md5(random()::text) WHERE id = :id;
INSERT INTO streams_outbox (model, subject_pk, facet, op, changed_fields, metadata)
    VALUES ('store.CustomerOrder', :id, 'object', 'updated', '{note}', '{"actor":"alice"}');
COMMIT;
SQL

tps() {
  pgbench -n -M prepared -c "$2" -j "$2" -T "$seconds" -f "$work/$1.sql" $db 2>/dev/null | awk '/^tps/ {printf "%.0f", $3}'
}
measure() {
  for clients in 1 4; do
    plain=(); streamed=()
    for _ in $(seq "$rounds"); do plain+=("$(tps plain $clients)"); streamed+=("$(tps streamed $clients)"); done
    median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    p=$(median "${plain[@]}"); s=$(median "${streamed[@]}")
    printf '| %s | %d | %s (%s) | %s (%s) | %.2fx |\n' "$1" $clients "$p" "${plain[*]}" "$s" "${streamed[*]}" \
        "$(echo "$p / $s" | bc -l)"
  done
}
echo "| outbox indexes | clients | plain tps, median (runs) | with the outbox insert | ratio |"
echo "| --- | --- | --- | --- | --- |"
measure "the product's"
psql -q -d $db -c "DROP INDEX streams_outbox_transaction, streams_outbox_subject_transaction,
    streams_outbox_cursor, streams_outbox_subject" >/dev/null
measure "primary key only"
