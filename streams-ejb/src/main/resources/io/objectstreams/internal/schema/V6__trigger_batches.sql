-- Object Streams schema, version 6: capture triggers number their rows by batch, not by transaction id.

-- Until now a trigger row's id came from txid_current(), and a transaction found its own rows by that id range.
-- Transaction ids start again near 1,000 after a dump is restored into a new cluster or a database is moved by
-- logical replication, while the outbox keeps the old rows: a new row could take an old row's id (the business write
-- failed with 23505) and a later transaction could tag or delete old rows as its own. Now each transaction that
-- captures through a trigger draws one batch from this sequence, keeps it in the transaction-local setting
-- streams.batch (only that transaction can read it), and numbers its rows within the batch's range of 2^22 ids.
-- The ids stay negative, apart from the entity listener's, and draw from no sequence of the application's own.
CREATE SEQUENCE IF NOT EXISTS streams_trigger_batch AS bigint MINVALUE 1 MAXVALUE 1099511627775 NO CYCLE;

-- Start past every trigger row written by the transaction-id numbering.
SELECT setval('streams_trigger_batch',
              coalesce((SELECT ((max(id) + 4611686018427387904) >> 22) + 1 FROM streams_outbox WHERE id < 0), 1),
              false);

-- This transaction's batch: the first id of its range, minus one. Drawn once per transaction, at its first captured
-- statement; a capture trigger on an insert draws it before the insert draws its own ids (BEFORE INSERT), since
-- EclipseLink reads a generated id back with lastval(), which any nextval moves.
--
-- A batch whose range already holds rows means the sequence is behind the outbox: a move by logical replication
-- carries rows but not sequences. The sequence then restarts past every trigger row. ALTER SEQUENCE keeps every
-- other nextval waiting until this transaction ends, so no two transactions can draw one batch, and the rows of
-- transactions that drew before it are committed (and counted) when it looks.
--
-- SECURITY DEFINER: any role that may write a captured table may draw a batch without rights on the sequence.
CREATE OR REPLACE FUNCTION streams_trigger_batch() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    base bigint := nullif(current_setting('streams.batch', true), '')::bigint;
    batch bigint;
BEGIN
    IF base IS NOT NULL THEN
        RETURN base;
    END IF;
    batch := nextval('streams_trigger_batch');
    base := (batch << 22) - 4611686018427387904;
    IF EXISTS (SELECT 1 FROM streams_outbox WHERE id > base AND id <= base + 4194304) THEN
        EXECUTE format('ALTER SEQUENCE streams_trigger_batch RESTART WITH %s', batch + 1);
        SELECT greatest(batch + 1, ((max(id) + 4611686018427387904) >> 22) + 1) INTO batch
          FROM streams_outbox WHERE id < 0;
        EXECUTE format('ALTER SEQUENCE streams_trigger_batch RESTART WITH %s', batch + 1);
        base := (batch << 22) - 4611686018427387904;
        RAISE WARNING 'Object Streams: the trigger batch sequence was behind the outbox (restored or moved?); it now'
            ' continues at %', batch + 1;
    END IF;
    PERFORM set_config('streams.batch', base::text, true);
    RETURN base;
END
$$;

-- The trigger that draws the batch before an insert does (see above); it writes nothing.
CREATE OR REPLACE FUNCTION streams_capture_begin() RETURNS trigger
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM streams_trigger_batch();
    RETURN NULL;
END
$$;

-- The capture mappings deployments have installed, by table: when each was first seen, and until when an instance
-- running it last said it runs. In a rolling deploy an instance of the previous version that restarts must not put
-- its older mapping back over the newer one while an instance of the newer one runs; once none does (a rollback),
-- it may.
CREATE TABLE IF NOT EXISTS streams_capture_mapping (
    table_name    text        NOT NULL,
    hash          text        NOT NULL,
    first_seen    timestamptz NOT NULL DEFAULT clock_timestamp(),
    running_until timestamptz,
    PRIMARY KEY (table_name, hash)
);
