-- V7: cursors by committed batch (issue 44, docs/design/assignment.md).
--
-- The assigner stops rewriting outbox rows. Once it switches (streams_cursor_state.last_snapshot set), it finds the
-- rows to number by transaction visibility, as PgQ does: the rows of transactions its last snapshot did not see and
-- its current one does. It numbers them in (wal_position, id) order and records each as one narrow row of
-- streams_cursors. Until the switch, it numbers rows one by one in streams_outbox.cursor as before, and a trigger
-- copies every such cursor into streams_cursors, so readers read streams_cursors whichever way a row was numbered,
-- and an instance of an earlier version can keep running beside this one.
--
-- Lock order: the cursor state first, as the assigner of every version takes it, then the outbox. A pruner of an
-- earlier version takes them the other way round; if one deadlocks with this migration, the migrator runs it again.
LOCK TABLE streams_cursor_state IN ACCESS EXCLUSIVE MODE;
LOCK TABLE streams_outbox IN SHARE ROW EXCLUSIVE MODE;

-- One row per numbered outbox row. floor: a transaction id no higher than that of any row numbered at or after this
-- cursor, so that a replay of one subject after a cursor reads only its rows from that transaction id on.
CREATE TABLE IF NOT EXISTS streams_cursors (
    cursor    bigint PRIMARY KEY,
    outbox_id bigint NOT NULL,
    floor     bigint NOT NULL DEFAULT 0
);
-- An outbox row is numbered at most once.
CREATE UNIQUE INDEX IF NOT EXISTS streams_cursors_outbox ON streams_cursors (outbox_id);

-- The snapshot of the last tick; NULL while rows are numbered one by one (before the switch).
ALTER TABLE streams_cursor_state ADD COLUMN IF NOT EXISTS last_snapshot txid_snapshot;

-- The tick's claim, and the backlog: rows by transaction.
CREATE INDEX IF NOT EXISTS streams_outbox_transaction ON streams_outbox (transaction_id);
-- One subject's rows from a transaction id on (object replay, later rows and deletes).
CREATE INDEX IF NOT EXISTS streams_outbox_subject_transaction ON streams_outbox (model, subject_pk, transaction_id);
-- IF NOT EXISTS keeps an index a DBA built ahead under these names; one left invalid by a failed CONCURRENTLY build,
-- or on other columns, would leave ticks and replays scanning the outbox.
DO $$
DECLARE
    wanted text[][] := ARRAY[['streams_outbox_transaction', 'transaction_id'],
                             ['streams_outbox_subject_transaction', 'model, subject_pk, transaction_id']];
    i integer;
BEGIN
    FOR i IN 1 .. array_length(wanted, 1) LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_index x
                        WHERE x.indexrelid = to_regclass(wanted[i][1]) AND x.indrelid = to_regclass('streams_outbox')
                          AND x.indisvalid AND x.indpred IS NULL
                          AND (SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                                 JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) = wanted[i][2]) THEN
            RAISE EXCEPTION '% exists but is not a valid index on streams_outbox (%); drop it, then deploy again',
                wanted[i][1], wanted[i][2];
        END IF;
    END LOOP;
END
$$;

-- Rows an apply worker of logical replication inserts carry the publisher's transaction ids, which ticks here would
-- look for among this cluster's transactions: such a row takes the id of the transaction that applies it. The
-- trigger fires only in replica mode (session_replication_role = replica), so the application's writes never pay it.
CREATE OR REPLACE FUNCTION streams_local_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.transaction_id := txid_current();
    RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS streams_local_transaction ON streams_outbox;
CREATE TRIGGER streams_local_transaction BEFORE INSERT ON streams_outbox
    FOR EACH ROW EXECUTE FUNCTION streams_local_transaction();
ALTER TABLE streams_outbox ENABLE REPLICA TRIGGER streams_local_transaction;

-- Before the switch: a cursor written into an outbox row, by this version or an earlier one, is copied. After it:
-- nothing may number a row that way, so an instance of an earlier version fails loudly instead of numbering rows
-- nobody reads.
-- Both functions run with the search path of the migration, so an outbox in a schema of its own reads its own cursor
-- state and writes its own streams_cursors, whatever the writing session's search path.
CREATE OR REPLACE FUNCTION streams_copy_cursor() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    IF (SELECT last_snapshot IS NOT NULL FROM streams_cursor_state WHERE id = 1) THEN
        RAISE EXCEPTION 'Object Streams: this outbox numbers rows by transaction (schema V7, switched); an instance'
            ' of an earlier version must not assign cursors. Stop it, or upgrade it.'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    INSERT INTO streams_cursors (cursor, outbox_id) VALUES (NEW.cursor, NEW.id);
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS streams_copy_cursor ON streams_outbox;
CREATE TRIGGER streams_copy_cursor AFTER UPDATE OF cursor ON streams_outbox
    FOR EACH ROW WHEN (OLD.cursor IS NULL AND NEW.cursor IS NOT NULL) EXECUTE FUNCTION streams_copy_cursor();

-- After the switch, only this version may move the cursor state: it says so in the statement that does
-- (set_config('streams.schema', '7', true)). An earlier version's assigner or pruner fails in this guard, so it
-- neither numbers rows nor raises the retention watermark past rows it did not delete.
CREATE OR REPLACE FUNCTION streams_cursor_state_guard() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT
AS $$
BEGIN
    IF OLD.last_snapshot IS NOT NULL AND current_setting('streams.schema', true) IS DISTINCT FROM '7' THEN
        RAISE EXCEPTION 'Object Streams: this outbox numbers rows by transaction (schema V7, switched); an instance'
            ' of an earlier version must not assign cursors or prune. Stop it, or upgrade it.'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS streams_cursor_state_guard ON streams_cursor_state;
CREATE TRIGGER streams_cursor_state_guard BEFORE UPDATE ON streams_cursor_state
    FOR EACH ROW EXECUTE FUNCTION streams_cursor_state_guard();

-- Every row numbered so far. Its floor stays 0: a replay from before the upgrade reads the subject's whole history.
INSERT INTO streams_cursors (cursor, outbox_id)
    SELECT cursor, id FROM streams_outbox WHERE cursor IS NOT NULL
    ON CONFLICT DO NOTHING;

-- Every outbox row with its cursor (NULL while it has none), for operators and tests: "which cursor has this row".
CREATE OR REPLACE VIEW streams_numbered AS
    SELECT o.id, c.cursor, o.model, o.subject_pk, o.facet, o.op, o.changed_fields, o.transaction_id, o.metadata,
           o.created_at, o.wal_position
      FROM streams_outbox o LEFT JOIN streams_cursors c ON c.outbox_id = o.id;

-- A schema this very run created (every earlier version applied in this transaction) never had an instance of an
-- earlier version: it numbers by tick from the start and has no use for the claim index.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM streams_schema_history WHERE applied_at < now()) THEN
        UPDATE streams_cursor_state SET last_snapshot = txid_current_snapshot() WHERE id = 1;
        DROP INDEX IF EXISTS streams_outbox_claim;
    END IF;
END
$$;
