package io.objectstreams.it.bench;

import io.objectstreams.internal.listener.CursorAssigner;
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
            System.out.printf("%nCursor assignment, %d committed rows per round, best of %d rounds%n", ROWS, ROUNDS);
            System.out.printf("%-12s %14s %16s%n", "batch size", "rows/s", "ms per batch");
            measure(source, 1000, 1, false); // warm-up: caches, JIT, plan
            for (int batchSize : List.of(100, 500, 1000, 5000)) {
                measure(source, batchSize, ROUNDS, true);
            }
        } finally {
            TestDatabase.stop();
        }
    }

    private static void measure(DataSource source, int batchSize, int rounds, boolean print) throws SQLException {
        double best = 0;
        double batchMillis = 0;
        CursorAssigner assigner = new CursorAssigner(batchSize, "object_streams_cursors");
        for (int round = 0; round < rounds; round++) {
            try (Connection connection = source.getConnection()) {
                insertCommittedRows(connection, ROWS);
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

    private static void insertCommittedRows(Connection connection, int rows) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                    + " SELECT 'bench.Item', g::text, 'updated', '{status}', '{\"actor\":\"bench\"}'"
                    + " FROM generate_series(1, " + rows + ") g");
            statement.execute("VACUUM ANALYZE streams_outbox");
        }
    }
}
