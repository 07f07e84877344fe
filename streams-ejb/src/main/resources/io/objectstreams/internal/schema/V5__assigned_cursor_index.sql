-- Object Streams schema, version 5: the cursor index holds assigned rows only.

-- The UNIQUE constraint on cursor indexed every row from its insert on, its NULL included: a third index entry for
-- each captured change, on the write path, that no query ever reads (every query by cursor asks for a range, which
-- only assigned rows match). A partial unique index keeps cursors unique and costs the insert nothing; the
-- assigner's update, which must write a new index entry for the cursor anyway, writes this one.
CREATE UNIQUE INDEX IF NOT EXISTS streams_outbox_cursor ON streams_outbox (cursor) WHERE cursor IS NOT NULL;
ALTER TABLE streams_outbox DROP CONSTRAINT IF EXISTS streams_outbox_cursor_key;
