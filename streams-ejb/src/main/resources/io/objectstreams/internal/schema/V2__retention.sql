-- Object Streams schema, version 2: retention.

-- When retention last ran (whether or not it deleted anything), so every instance's health can show it.
ALTER TABLE streams_cursor_state ADD COLUMN pruned_at timestamptz;
