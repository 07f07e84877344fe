package io.objectstreams.it.bench;

import io.objectstreams.internal.listener.CursorAssigner;
import io.objectstreams.internal.listener.OutboxReader;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code mvn -Pbench package}: how fast the assigner gives cursors to committed rows, in rows per second,
 * for several batch sizes ({@code streams.listener.batch-size}). Uses the product's own {@link CursorAssigner}
 * against an embedded PostgreSQL with the product's schema; the rows are committed before timing starts.
 * A benchmark, not a test: it prints figures and asserts nothing about speed.
 */
public final class CursorAssignmentBenchmark {

    private static final int ROWS = Integer.getInteger("bench.rows", 200_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);

    private CursorAssignmentBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        try {
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(TestDatabase.url());
            source.setUser("postgres");
            SchemaMigrator.migrate(source);
            String fillfactor = System.getProperty("bench.fillfactor");
            if (fillfactor != null) {
                // -Dbench.fillfactor=N: how the outbox's page fill changes the assignment (docs/benchmarks.md).
                try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
                    statement.execute("ALTER TABLE streams_outbox SET (fillfactor = " + Integer.parseInt(fillfactor) + ")");
                }
                System.out.printf("%nstreams_outbox fillfactor %s%n", fillfactor);
            }
            System.out.printf("%nCursor assignment, %d committed rows per round, best of %d rounds%n", ROWS, ROUNDS);
            System.out.printf("%-12s %14s %16s%n", "batch size", "rows/s", "ms per batch");
            measure(source, 1000, 1, false, false); // warm-up: caches, JIT, plan
            for (int batchSize : List.of(100, 500, 1000, 5000)) {
                measure(source, batchSize, ROUNDS, true, false);
            }
            System.out.printf("with statistics from before the backlog (ANALYZE saw every row assigned):%n");
            measure(source, 1000, ROUNDS, true, true);
            split(source, 1000);
            replay(source);
        } finally {
            TestDatabase.stop();
        }
    }

    /**
     * {@code staleStatistics}: the table is analyzed while every row has its cursor and the backlog is committed
     * afterwards, as in production, where a burst (a bulk import, a listener that was down) meets statistics
     * from a quiet time. Otherwise the backlog is analyzed before timing.
     */
    private static void measure(DataSource source, int batchSize, int rounds, boolean print, boolean staleStatistics)
            throws SQLException {
        double best = 0;
        double batchMillis = 0;
        CursorAssigner assigner = new CursorAssigner(batchSize, "object_streams_cursors");
        for (int round = 0; round < rounds; round++) {
            try (Connection connection = source.getConnection()) {
                insertCommittedRows(connection, ROWS, staleStatistics);
                long start = System.nanoTime();
                long assigned = assigner.assignAll(connection);
                long elapsed = System.nanoTime() - start;
                if (assigned != ROWS) {
                    throw new IllegalStateException("assigned " + assigned + " of " + ROWS);
                }
                double rate = assigned / (elapsed / 1e9);
                if (rate > best) {
                    best = rate;
                    batchMillis = elapsed / 1e6 / Math.ceil((double) ROWS / batchSize);
                }
            }
        }
        if (print) {
            System.out.printf("%-12d %,14.0f %16.2f%n", batchSize, best, batchMillis);
        }
    }

    /**
     * Replay read rate: one object with {@value #REPLAY_EVENTS} events among the rows above, read back with the
     * product's own {@link OutboxReader#readSubjectBetween} (the subject index), all at once and as a reconnecting
     * client reads them (its last {@code streams.replay-limit} = 1000 events).
     */
    private static void replay(DataSource source) throws SQLException {
        try (Connection connection = source.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                // As an object's changes come: one transaction each (-Dbench.replay.per-transaction=N groups them).
                int perTransaction = Integer.getInteger("bench.replay.per-transaction", 1);
                statement.execute("DO $$ BEGIN FOR t IN 1.." + REPLAY_EVENTS / perTransaction + " LOOP"
                        + " INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                        + " SELECT 'bench.Replay', '1', 'updated', '{status}', '{\"actor\":\"bench\"}'"
                        + " FROM generate_series(1, " + perTransaction + "); COMMIT; END LOOP; END $$");
            }
            new CursorAssigner(5000, "object_streams_cursors").assignAll(connection);
            try (Statement statement = connection.createStatement()) {
                statement.execute("VACUUM ANALYZE streams_outbox");
            }
            long total = CursorAssigner.lastCursor(connection);
            double bestAll = 0;
            double bestTail = Double.MAX_VALUE;
            for (int round = 0; round < ROUNDS + 1; round++) {
                long start = System.nanoTime();
                int read = OutboxReader.readSubjectBetween(connection, "bench.Replay", "1", 0, Long.MAX_VALUE, REPLAY_EVENTS + 1).size();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (read != REPLAY_EVENTS) {
                    throw new IllegalStateException("read " + read + " of " + REPLAY_EVENTS);
                }
                bestAll = Math.max(bestAll, read / seconds);
                start = System.nanoTime();
                int tail = OutboxReader.readSubjectBetween(connection, "bench.Replay", "1", total - 1000, Long.MAX_VALUE, 1001).size();
                double tailMillis = (System.nanoTime() - start) / 1e6;
                if (tail != 1000) {
                    throw new IllegalStateException("read " + tail + " of the last 1000");
                }
                bestTail = Math.min(bestTail, tailMillis);
            }
            System.out.printf("%nReplay of one object with %,d events, among %,d outbox rows (best of %d)%n",
                    REPLAY_EVENTS, total, ROUNDS + 1);
            System.out.printf("all %,d events: %,.0f rows/s; its last 1000 (streams.replay-limit): %.1f ms%n",
                    REPLAY_EVENTS, bestAll, bestTail);
        }
    }

    /**
     * Where a batch's time goes: PostgreSQL's execution time per statement ({@code pg_stat_statements}), the rest
     * (the commit's WAL flush, round trips, the JDBC work), and the WAL written per row, over one backlog of
     * {@link #ROWS} rows assigned at {@code batchSize}.
     */
    private static void split(DataSource source, int batchSize) throws SQLException {
        CursorAssigner assigner = new CursorAssigner(batchSize, "object_streams_cursors");
        try (Connection connection = source.getConnection()) {
            insertCommittedRows(connection, ROWS, false);
            TestDatabase.resetStatementCounts();
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_stat_reset_shared('wal')");
            }
            long wal = walBytes(connection);
            long start = System.nanoTime();
            long assigned = assigner.assignAll(connection);
            double elapsedMs = (System.nanoTime() - start) / 1e6;
            double walPerRow = (walBytes(connection) - wal) / (double) assigned;
            double batches = Math.ceil((double) assigned / batchSize);
            System.out.printf("%nOne batch of %d, split (%,d rows, %.0f batches): %.2f ms per batch, WAL %.0f bytes per"
                    + " row%n| statement | calls per batch | ms per batch |%n| --- | --- | --- |%n", batchSize, assigned,
                    batches, elapsedMs / batches, walPerRow);
            double executed = 0;
            try (Statement statement = connection.createStatement();
                 java.sql.ResultSet rs = statement.executeQuery("SELECT regexp_replace(left(query, 70), '\\s+', ' ', 'g'),"
                         + " calls, total_exec_time FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'"
                         + " AND query NOT ILIKE '%pg_current_wal%' ORDER BY total_exec_time DESC LIMIT 8")) {
                while (rs.next()) {
                    executed += rs.getDouble(3);
                    System.out.printf("| `%s` | %.2f | %.3f |%n", rs.getString(1), rs.getLong(2) / batches,
                            rs.getDouble(3) / batches);
                }
            }
            System.out.printf("| the rest: commit (its WAL flush), round trips, JDBC | | %.3f |%n",
                    (elapsedMs - executed) / batches);
            try (Statement statement = connection.createStatement();
                 java.sql.ResultSet rs = statement.executeQuery("SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")) {
                rs.next();
                System.out.printf("WAL per row: %.2f records, %.3f full-page images, %.0f bytes (pg_stat_wal)%n",
                        rs.getLong(1) / (double) assigned, rs.getLong(2) / (double) assigned,
                        rs.getDouble(3) / assigned);
            }
        }
    }

    private static long walBytes(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             java.sql.ResultSet rs = statement.executeQuery("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static final int REPLAY_EVENTS = 100_000;

    private static void insertCommittedRows(Connection connection, int rows, boolean staleStatistics)
            throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (staleStatistics) {
                statement.execute("VACUUM ANALYZE streams_outbox");
            }
            statement.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                    + " SELECT 'bench.Item', g::text, 'updated', '{status}', '{\"actor\":\"bench\"}'"
                    + " FROM generate_series(1, " + rows + ") g");
            if (!staleStatistics) {
                statement.execute("VACUUM ANALYZE streams_outbox");
            }
        }
    }
}
