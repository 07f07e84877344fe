-- Object Streams schema, version 3: trigger capture.

-- A capture trigger writes 'truncated' when its table is truncated: every subscription of the model resyncs.
ALTER TABLE streams_outbox DROP CONSTRAINT IF EXISTS streams_outbox_op_check;
ALTER TABLE streams_outbox ADD CONSTRAINT streams_outbox_op_check
    CHECK (op IN ('created', 'updated', 'deleted', 'truncated'));
