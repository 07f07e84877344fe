package io.objectstreams.internal.listener;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The SQL that takes an outbox numbered by tick (schema V7, switched) back to numbering one row at a time, so that a
 * release older than V7 can run against it: what {@code GET streams/admin/numbering.sql} returns, for a DBA to review
 * and run with every instance stopped (docs/operations.md; the design's section 3.4 in docs/design/assignment.md).
 *
 * <p>An earlier release reads and writes only {@code streams_outbox.cursor}, which ticks leave NULL. So the script
 * writes each cursor given by tick back into its row, clears {@code last_snapshot} (the state's "by tick" mark),
 * rebuilds the claim index of V4 that the switch dropped, and deletes V7's record from
 * {@code streams_schema_history}. An earlier release ignores that record, but leaving it would make the next upgrade
 * skip V7, and with it the restoring of V7's own guard below.
 *
 * <p>It keeps V7's copy trigger, which before the switch copies each cursor an earlier release writes into
 * {@code streams_cursors} and refuses nothing while {@code last_snapshot} is NULL: the map stays complete for the
 * next upgrade. And it turns V7's guard on the cursor state around: where it refused an earlier release after the
 * switch, it now refuses every statement of V7 or later that moves the state (they say so with
 * {@code set_config('streams.schema', '7', true)}): a tick, the switch, a prune. An instance of V7 that was missed,
 * or that reconnects after the script, cannot switch again under the earlier release and leave one row with two
 * cursors; it fails loudly until it is restarted, when its migration applies V7 again and with it the guard's own
 * form. Numbering one by one, which such an instance may do beside an earlier release, says nothing of the kind and
 * passes, as before the switch.
 *
 * <p>It refuses while any Object Streams listener or delivery session is connected to the database, by application
 * name or by this version's session mark, whatever its release, checked once it holds the locks: PostgreSQL cannot
 * tell which outbox a session serves, so another application's instances in the same database hold it back too.
 * Everything else is conditional ({@code IF EXISTS}, {@code IS NULL}, {@code OR REPLACE}), so a second run changes
 * nothing. A schema name with a control character, a dollar sign or a brace is refused rather than written into the
 * script, whose comments and dollar-quoted blocks could not hold it safely.
 */
public final class NumberingRollback {

    /** The outbox's schema: where this connection finds it, else where the migration creates it. */
    private static final String OUTBOX_SCHEMA = "SELECT coalesce((SELECT n.nspname FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass('streams_outbox')),"
            + " current_schema())";

    /**
     * The script, with {@code {schema}} for the quoted schema, {@code {claim}} for the claim index's qualified name
     * as a literal and {@code {sessions}} for the application names of Object Streams' own sessions. Its comments
     * hold no single quote and no colon before a word, which a client's statement splitter or psql's variables could
     * take for syntax.
     */
    private static final String SCRIPT = """
            -- Object Streams: back to numbering one row at a time, for a release older than schema V7.
            -- Outbox {schema}.streams_outbox. docs/operations.md says when and how to run this.
            --
            -- From schema V7 on, once no earlier release was connected, cursors are given by tick: each is one row
            -- of streams_cursors, and streams_outbox.cursor is no longer written. A release older than V7 reads and
            -- writes only streams_outbox.cursor. This script, in one transaction,
            --   1. takes the cursor state and the outbox, then refuses while an Object Streams listener or delivery
            --      session (of any release or application) is connected to this database;
            --   2. turns the V7 guard on the cursor state around, so that an instance of V7 or later that is still
            --      running, or starts without applying V7 again, fails rather than number by tick or prune;
            --   3. writes each cursor given by tick into streams_outbox.cursor (the V7 copy trigger, which from now
            --      on copies the cursors the earlier release writes into streams_cursors, is paused for this);
            --   4. marks the cursor state as numbering one row at a time (last_snapshot NULL);
            --   5. rebuilds the index streams_outbox_claim through which an earlier release claims rows (V4);
            --   6. deletes the record of V7 from streams_schema_history, so that the next upgrade applies V7 again.
            --
            -- STOP EVERY INSTANCE of the application first (undeploy it or stop its servers), then run this as the
            -- owner of the outbox, with psql -v ON_ERROR_STOP=1 -f numbering.sql, then start the earlier release.
            -- It holds the outbox for writes while it rewrites the rows numbered by tick, one update per row still
            -- kept. Running it again changes nothing. It keeps what an earlier release ignores and V7 reuses, the
            -- table streams_cursors, the view streams_numbered, the replica-only trigger streams_local_transaction
            -- and the indexes streams_outbox_transaction and streams_outbox_subject_transaction (every insert pays
            -- for these two; drop them if the earlier release is to stay, V7 builds them again).
            BEGIN;
            -- The cursor state first, then the outbox, as every assigner takes them.
            LOCK TABLE {schema}.streams_cursor_state IN ACCESS EXCLUSIVE MODE;
            LOCK TABLE {schema}.streams_outbox IN SHARE ROW EXCLUSIVE MODE;
            DO $$
            DECLARE
                connected text;
            BEGIN
                SELECT string_agg(a.application_name || ' (pid ' || a.pid || coalesce(', ' || host(a.client_addr), '')
                                  || ')', ', ')
                  INTO connected
                  FROM pg_stat_activity a
                 WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
                   AND (a.application_name IN ({sessions})
                        OR EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory'
                                      AND l.classid = {markClass} AND l.objid = {markObject} AND l.objsubid = 1));
                IF connected IS NOT NULL THEN
                    RAISE EXCEPTION 'Object Streams sessions are still connected to this database: %. Nothing was'
                        ' changed.', connected
                        USING ERRCODE = 'object_in_use',
                              HINT = 'Stop every instance of the application (and of any other application using'
                                  ' Object Streams in this database), then run this script again.';
                END IF;
            END
            $$;
            CREATE OR REPLACE FUNCTION {schema}.streams_cursor_state_guard() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF current_setting('streams.schema', true) = '7' THEN
                    RAISE EXCEPTION 'Object Streams: this outbox was rolled back to numbering one row at a time for'
                        ' a release older than schema V7 (numbering.sql); an instance of V7 or later must not number'
                        ' by tick or prune until V7 is applied again. Stop it, or restart it: its migration applies'
                        ' V7 again.'
                        USING ERRCODE = 'object_not_in_prerequisite_state';
                END IF;
                RETURN NEW;
            END
            $$;
            DROP TRIGGER IF EXISTS streams_cursor_state_guard ON {schema}.streams_cursor_state;
            CREATE TRIGGER streams_cursor_state_guard BEFORE UPDATE ON {schema}.streams_cursor_state
                FOR EACH ROW EXECUTE FUNCTION {schema}.streams_cursor_state_guard();
            -- Each cursor written back is in streams_cursors already: the copy trigger pauses while they are.
            ALTER TABLE {schema}.streams_outbox DISABLE TRIGGER streams_copy_cursor;
            UPDATE {schema}.streams_outbox o SET cursor = c.cursor
              FROM {schema}.streams_cursors c
             WHERE c.outbox_id = o.id AND o.cursor IS NULL;
            ALTER TABLE {schema}.streams_outbox ENABLE TRIGGER streams_copy_cursor;
            UPDATE {schema}.streams_cursor_state SET last_snapshot = NULL
             WHERE id = 1 AND last_snapshot IS NOT NULL;
            -- An invalid index of that name (a failed CREATE INDEX CONCURRENTLY) would be kept by IF NOT EXISTS.
            DO $$
            BEGIN
                IF EXISTS (SELECT 1 FROM pg_index
                            WHERE indexrelid = to_regclass({claim}) AND NOT indisvalid) THEN
                    DROP INDEX {schema}.streams_outbox_claim;
                END IF;
            END
            $$;
            CREATE INDEX IF NOT EXISTS streams_outbox_claim ON {schema}.streams_outbox (wal_position, id)
                WHERE cursor IS NULL;
            DELETE FROM {schema}.streams_schema_history WHERE version = 7;
            COMMIT;
            """;

    private NumberingRollback() {
    }

    /**
     * The script for the outbox {@code connection}'s search path finds (or, with none, its current schema), with every
     * name qualified by that schema, as trigger capture qualifies its own: the DBA's session may have another path.
     */
    public static String script(Connection connection) throws SQLException {
        try (Statement query = connection.createStatement(); ResultSet row = query.executeQuery(OUTBOX_SCHEMA)) {
            String schema = row.next() ? row.getString(1) : null;
            if (schema == null) {
                throw new SQLException("There is no streams_outbox table in the search_path of the application's"
                        + " datasource, and no current schema to look for it in");
            }
            return script(schema);
        }
    }

    /** The script for the outbox in {@code schema}. */
    static String script(String schema) throws SQLException {
        if (!schema.codePoints().allMatch(c -> c >= 0x20 && c != 0x7f && c != '$' && c != '{' && c != '}')) {
            throw new SQLException("The outbox's schema name " + schema.codePoints().count() + " characters long"
                    + " holds a control character, a dollar sign or a brace, which the rollback script cannot quote"
                    + " safely; write the script by hand from docs/operations.md");
        }
        String quoted = '"' + schema.replace("\"", "\"\"") + '"';
        return SCRIPT.replace("{sessions}", literal(ListenerConnection.APPLICATION_NAME) + ", "
                        + literal(BatchDelivery.APPLICATION_NAME))
                .replace("{markClass}", Long.toString(TickNumbering.MARK_SESSION_KEY >>> 32))
                .replace("{markObject}", Long.toString(TickNumbering.MARK_SESSION_KEY & 0xffff_ffffL))
                .replace("{claim}", literal(quoted + ".streams_outbox_claim"))
                .replace("{schema}", quoted);
    }

    private static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}
