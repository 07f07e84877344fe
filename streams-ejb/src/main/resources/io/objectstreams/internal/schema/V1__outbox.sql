-- Object Streams schema, version 1: the outbox and the cursor state.

-- One row per captured source change. A row is written inside the business transaction (G1) with no
-- cursor; the listener assigns cursors to committed rows in id order (G5). id is internal; cursor is what
-- clients see. created_at is the insert time (clock_timestamp, not the transaction start), which is
-- just before commit: the listener's backlog age is measured from it.
CREATE TABLE streams_outbox (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cursor         bigint UNIQUE,
    model          text        NOT NULL,
    subject_pk     text        NOT NULL,
    facet          text        NOT NULL DEFAULT 'object',
    op             text        NOT NULL CHECK (op IN ('created', 'updated', 'deleted')),
    changed_fields text[]      NOT NULL DEFAULT '{}',
    transaction_id bigint      NOT NULL DEFAULT txid_current(),
    metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The assigner claims unassigned rows in id order; a partial index keeps that claim cheap however large
-- the assigned history grows.
CREATE INDEX streams_outbox_unassigned ON streams_outbox (id) WHERE cursor IS NULL;

-- Replay of one subject's history after a cursor.
CREATE INDEX streams_outbox_subject ON streams_outbox (model, subject_pk, cursor) WHERE cursor IS NOT NULL;

-- Single-row state: the last cursor handed out and how far retention has deleted (the watermark).
CREATE TABLE streams_cursor_state (
    id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    last_cursor     bigint      NOT NULL DEFAULT 0,
    pruned_through  bigint      NOT NULL DEFAULT 0,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO streams_cursor_state (id) VALUES (1);
