-- Object Streams schema, version 5: the cursor index holds assigned rows only.

-- The UNIQUE constraint on cursor indexed every row from its insert on, its NULL included: a third index entry for
-- each captured change, on the write path, that no query ever reads (every query by cursor asks for a range, which
-- only assigned rows match). A partial unique index keeps cursors unique and costs the insert nothing; the
-- assigner's update, which must write a new index entry for the cursor anyway, writes this one.

-- The strongest lock first, so the version never upgrades one it holds: building the index under SHARE and then
-- asking ACCESS EXCLUSIVE to drop the constraint would deadlock with an assigner of the previous version whose
-- claim holds ACCESS SHARE and whose update waits behind the build. Writes wait for the build (as for any index
-- built without CONCURRENTLY); a DBA may build the index CONCURRENTLY beforehand, under this name.
LOCK TABLE streams_outbox IN ACCESS EXCLUSIVE MODE;
CREATE UNIQUE INDEX IF NOT EXISTS streams_outbox_cursor ON streams_outbox (cursor) WHERE cursor IS NOT NULL;

-- IF NOT EXISTS keeps any relation of that name: the constraint goes only if a valid unique index on cursor stands.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_index i
                    WHERE i.indexrelid = to_regclass('streams_outbox_cursor')
                      AND i.indrelid = to_regclass('streams_outbox')
                      AND i.indisunique AND i.indisvalid
                      AND i.indkey::text = (SELECT attnum::text FROM pg_attribute
                                             WHERE attrelid = to_regclass('streams_outbox') AND attname = 'cursor')) THEN
        RAISE EXCEPTION 'streams_outbox_cursor exists but is not a valid unique index on streams_outbox (cursor);'
            ' drop or rename it, then deploy again';
    END IF;
END
$$;
ALTER TABLE streams_outbox DROP CONSTRAINT IF EXISTS streams_outbox_cursor_key;
