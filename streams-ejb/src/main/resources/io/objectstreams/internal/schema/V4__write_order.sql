-- Object Streams schema, version 4: rows are numbered in the order they were written, not in id order.

-- Where the write-ahead log stood when the row was written: after the writes it reports, so a transaction that
-- waited for another's row lock, and so wrote after that one committed, has every row it wrote from then on
-- placed after all of the other's. Ids cannot tell that: a capture trigger's ids follow the transaction id,
-- which is taken at the transaction's first write. Rows written before this version are placed first.
ALTER TABLE streams_outbox ADD COLUMN IF NOT EXISTS wal_position bigint NOT NULL DEFAULT 0;
ALTER TABLE streams_outbox ALTER COLUMN wal_position SET DEFAULT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint;

-- The assigner claims unassigned rows in that order. A DBA may have built this index CONCURRENTLY beforehand.
CREATE INDEX IF NOT EXISTS streams_outbox_claim ON streams_outbox (wal_position, id) WHERE cursor IS NULL;
DROP INDEX IF EXISTS streams_outbox_unassigned;
