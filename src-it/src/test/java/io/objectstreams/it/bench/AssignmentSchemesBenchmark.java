package io.objectstreams.it.bench;

import io.objectstreams.internal.listener.CursorAssigner;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code mvn -Pbench process-test-classes exec:java@assignment-schemes}: the alternatives of
 * docs/design/assignment.md measured side by side on one database, as SQL prototypes beside the product's own
 * {@link CursorAssigner}. Each round commits {@value #TRANSACTIONS_PER_TICK} transactions of
 * {@code bench.rows-per-tick / } {@value #TRANSACTIONS_PER_TICK} rows (untimed), then numbers them (timed), so each
 * scheme numbers the same kind of steady trickle:
 * <ul>
 *   <li>{@code row}: the product numbering one by one, its per-row {@code UPDATE}, held there by a session named as an
 *       earlier version's listener (since V7 a trigger also copies each cursor into {@code streams_cursors});</li>
 *   <li>{@code tick}: the product numbering by tick (V7);</li>
 *   <li>{@code row, wal_compression}: the same with the server's full-page images compressed (alternative a);</li>
 *   <li>{@code map}: a tick found by transaction visibility, then one narrow insert-only row per outbox row
 *       (alternative d);</li>
 *   <li>{@code range}: the same tick, written as range rows of at most 1,000 ids (the proposal).</li>
 * </ul>
 * Then a backlog: {@code bench.backlog} rows committed before numbering starts. A benchmark, not a test: it
 * prints figures and asserts only that every scheme numbered every row once.
 */
public final class AssignmentSchemesBenchmark {

    private static final int ROWS_PER_TICK = Integer.getInteger("bench.rows-per-tick", 1000);
    private static final int TICKS = Integer.getInteger("bench.ticks", 200);
    private static final int BACKLOG = Integer.getInteger("bench.backlog", 200_000);
    private static final int TRANSACTIONS_PER_TICK = 100;
    private static final String[] SCHEMES = System.getProperty("bench.schemes", "row,tick,map,event,range").split(",");

    private static final String PROTOTYPE = String.join("\n",
            "CREATE TABLE proto_state (id int PRIMARY KEY, last_cursor bigint NOT NULL, last_snapshot txid_snapshot);",
            "CREATE TABLE proto_range (first_cursor bigint PRIMARY KEY, last_cursor bigint NOT NULL,",
            "  snapshot txid_snapshot NOT NULL, seen_below bigint NOT NULL, ids bigint[] NOT NULL,",
            "  newest_insert timestamptz NOT NULL,",
            "  EXCLUDE USING gist (int8range(first_cursor, last_cursor, '[]') WITH &&));",
            "CREATE INDEX proto_range_xmax ON proto_range (seen_below, first_cursor);",
            "CREATE TABLE proto_map (cursor bigint PRIMARY KEY, outbox_id bigint NOT NULL);",
            "CREATE INDEX proto_map_outbox ON proto_map (outbox_id);",
            "CREATE TABLE proto_event (cursor bigint PRIMARY KEY, outbox_id bigint NOT NULL UNIQUE, model text NOT NULL,",
            "  subject_pk text NOT NULL);",
            "CREATE INDEX proto_event_subject ON proto_event (model, subject_pk, cursor);");

    /** The tick's claim: rows of transactions the previous snapshot did not see and this one does. */
    private static final String TICK_CLAIM = "WITH st AS (SELECT last_cursor, last_snapshot AS prev,"
            + " txid_current_snapshot() AS cur FROM proto_state WHERE id = 1),"
            + " claimed AS (SELECT o.id, o.model, o.subject_pk, o.wal_position, o.created_at FROM streams_outbox o"
            + "   WHERE o.transaction_id = ANY (ARRAY(SELECT txid_snapshot_xip(prev) FROM st))"
            + "     AND txid_visible_in_snapshot(o.transaction_id, (SELECT cur FROM st))"
            + "  UNION ALL SELECT o.id, o.model, o.subject_pk, o.wal_position, o.created_at FROM streams_outbox o"
            + "   WHERE o.transaction_id >= (SELECT txid_snapshot_xmax(prev) FROM st)"
            + "     AND o.transaction_id < (SELECT txid_snapshot_xmax(cur) FROM st)"
            + "     AND txid_visible_in_snapshot(o.transaction_id, (SELECT cur FROM st))),"
            + " ordered AS (SELECT id, model, subject_pk, created_at, row_number() OVER (ORDER BY wal_position, id) AS ord FROM claimed),";

    private static final String RANGE_WRITE = " written AS (INSERT INTO proto_range"
            + " (first_cursor, last_cursor, snapshot, seen_below, ids, newest_insert)"
            + " SELECT (SELECT last_cursor FROM st) + min(ord), (SELECT last_cursor FROM st) + max(ord),"
            + " (SELECT cur FROM st), (SELECT txid_snapshot_xmax(cur) FROM st), array_agg(id ORDER BY ord),"
            + " max(created_at) FROM ordered GROUP BY (ord - 1) / 1000 RETURNING last_cursor AS high),";

    private static final String MAP_WRITE = " written AS (INSERT INTO proto_map (cursor, outbox_id)"
            + " SELECT (SELECT last_cursor FROM st) + ord, id FROM ordered RETURNING cursor AS high),";

    private static final String EVENT_WRITE = " written AS (INSERT INTO proto_event (cursor, outbox_id, model,"
            + " subject_pk) SELECT (SELECT last_cursor FROM st) + ord, id, model, subject_pk FROM ordered"
            + " RETURNING cursor AS high),";

    private static final String ADVANCE = " advanced AS (UPDATE proto_state SET last_cursor ="
            + " (SELECT max(high) FROM written), last_snapshot = (SELECT cur FROM st)"
            + " WHERE id = 1 AND EXISTS (SELECT 1 FROM written) RETURNING last_cursor)"
            + " SELECT last_cursor, (SELECT count(*) FROM ordered), pg_notify('bench_cursors', '') FROM advanced";

    private AssignmentSchemesBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        try {
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(TestDatabase.url());
            source.setUser("postgres");
            SchemaMigrator.migrate(source);
            try (Connection connection = source.getConnection()) {
                execute(connection, PROTOTYPE);
                System.out.printf("%nAssignment schemes: %d ticks of %,d rows in %d transactions each%n", TICKS,
                        ROWS_PER_TICK, TRANSACTIONS_PER_TICK);
                System.out.printf("| scheme | statistics | rows/s | ms per %,d rows | WAL bytes per row |%n"
                        + "| --- | --- | --- | --- | --- |%n", ROWS_PER_TICK);
                // Holds the product to numbering one by one, as a connected instance of an earlier version does.
                Connection earlier = null;
                if (List.of(SCHEMES).contains("row")) {
                    // A new schema numbers by tick from the start (V7): back to numbering one by one, as an
                    // upgraded one is until the switch.
                    execute(connection, "UPDATE streams_cursor_state SET last_snapshot = NULL WHERE id = 1"
                            + " AND set_config('streams.schema', '7', true) = '7';"
                            + " CREATE INDEX streams_outbox_claim ON streams_outbox (wal_position, id) WHERE cursor IS NULL");
                    PGSimpleDataSource named = new PGSimpleDataSource();
                    named.setURL(TestDatabase.url());
                    named.setUser("postgres");
                    named.setApplicationName("object-streams-listener");
                    earlier = named.getConnection();
                }
                for (String scheme : SCHEMES) {
                    if (!scheme.equals("row") && earlier != null) {
                        earlier.close();
                        earlier = null;
                        Thread.sleep(500); // until PostgreSQL no longer lists the closed session
                    }
                    trickle(connection, scheme, false);
                    trickle(connection, scheme, true);
                    if (scheme.equals("row")) {
                        execute(connection, "ALTER SYSTEM SET wal_compression = on; SELECT pg_reload_conf()");
                        trickle(connection, "row, wal_compression", false);
                        execute(connection, "ALTER SYSTEM RESET wal_compression; SELECT pg_reload_conf()");
                    }
                    // Each scheme's backlog before the next scheme: the row scheme numbers every row without a cursor.
                    backlog(connection, scheme);
                }
            }
        } finally {
            TestDatabase.stop();
        }
    }

    /** {@link #TICKS} rounds of a committed tick, then its numbering, timed; prints one table row. */
    private static void trickle(Connection connection, String scheme, boolean stale) throws SQLException {
        startScheme(connection, scheme);
        execute(connection, "VACUUM ANALYZE streams_outbox");
        execute(connection, "ALTER TABLE streams_outbox SET (autovacuum_enabled = " + !stale + ")");
        long nanos = 0;
        long wal = 0;
        long numbered = 0;
        for (int tick = 0; tick < TICKS; tick++) {
            commitRows(connection, ROWS_PER_TICK);
            if (!stale) {
                execute(connection, "ANALYZE streams_outbox");
            }
            long walBefore = walPosition(connection);
            long start = System.nanoTime();
            numbered += number(connection, scheme);
            nanos += System.nanoTime() - start;
            wal += walPosition(connection) - walBefore;
        }
        check(numbered, (long) TICKS * ROWS_PER_TICK, scheme);
        execute(connection, "ALTER TABLE streams_outbox RESET (autovacuum_enabled)");
        System.out.printf("| %s | %s | %,.0f | %.2f | %.0f |%n", scheme, stale ? "stale" : "analyzed",
                numbered / (nanos / 1e9), nanos / 1e6 / TICKS, wal / (double) numbered);
    }

    private static void backlog(Connection connection, String scheme) throws SQLException {
        startScheme(connection, scheme);
        for (int done = 0; done < BACKLOG; done += ROWS_PER_TICK) {
            commitRows(connection, ROWS_PER_TICK);
        }
        execute(connection, "VACUUM ANALYZE streams_outbox");
        long start = System.nanoTime();
        long numbered = 0;
        long last;
        do {
            last = number(connection, scheme);
            numbered += last;
        } while (last > 0 && numbered < BACKLOG);
        long nanos = System.nanoTime() - start;
        check(numbered, BACKLOG, scheme);
        System.out.printf("| %s | backlog of %,d | %,.0f | | |%n", scheme, BACKLOG, numbered / (nanos / 1e9));
    }

    /** Makes the next rows the scheme's own: the tick schemes start from a snapshot that sees every earlier row. */
    private static void startScheme(Connection connection, String scheme) throws SQLException {
        if (!scheme.startsWith("row") && !scheme.equals("tick")) {
            execute(connection, "INSERT INTO proto_state SELECT 1, last_cursor, txid_current_snapshot()"
                    + " FROM streams_cursor_state ON CONFLICT (id) DO UPDATE SET last_snapshot = txid_current_snapshot()");
        }
    }

    /** The product's assigner: one for the whole run, as a listener holds one while it holds the role. */
    private static final CursorAssigner PRODUCT = new CursorAssigner(1000, "bench_cursors");

    private static long number(Connection connection, String scheme) throws SQLException {
        if (scheme.startsWith("row") || scheme.equals("tick")) {
            if (Boolean.getBoolean("bench.explain") && scheme.equals("tick")) {
                // -Dbench.explain=true: the plans of the product's statements, in the database's log.
                execute(connection, "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;"
                        + " SET auto_explain.log_analyze = true; SET auto_explain.log_nested_statements = true");
            }
            return PRODUCT.assignAll(connection);
        }
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT last_cursor FROM proto_state WHERE id = 1 FOR UPDATE; " + TICK_CLAIM
                    + (scheme.equals("range") ? RANGE_WRITE : scheme.equals("map") ? MAP_WRITE : EVENT_WRITE) + ADVANCE);
            statement.getMoreResults();
            long count = 0;
            try (ResultSet rs = statement.getResultSet()) {
                if (rs.next()) {
                    count = rs.getLong(2);
                }
            }
            connection.commit();
            return count;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static void commitRows(Connection connection, int rows) throws SQLException {
        execute(connection, "DO $$ BEGIN FOR t IN 1.." + TRANSACTIONS_PER_TICK + " LOOP"
                + " INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                + " SELECT 'bench.Item', (random() * 1000000)::int::text, 'updated', '{status}',"
                + " '{\"actor\":\"bench\"}' FROM generate_series(1, " + rows / TRANSACTIONS_PER_TICK + ");"
                + " COMMIT; END LOOP; END $$");
    }

    private static void check(long numbered, long expected, String scheme) {
        if (numbered != expected) {
            throw new IllegalStateException(scheme + " numbered " + numbered + " of " + expected + " rows");
        }
    }

    private static long walPosition(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
