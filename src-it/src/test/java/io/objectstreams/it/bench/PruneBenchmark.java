package io.objectstreams.it.bench;

import io.objectstreams.feed.PruneOutcome;
import io.objectstreams.internal.listener.CursorAssigner;
import io.objectstreams.internal.retention.OutboxPruner;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code mvn -Pbench process-test-classes exec:java@prune}: how fast retention deletes, in rows per second, from
 * a {@code bench.rows} (1,000,000) row outbox while {@code bench.writers} (4) writers commit one row per
 * transaction, {@code bench.write-rate} (200) per second together, and an assigner gives them cursors, for each batch size in {@code bench.batch-sizes}. Uses the
 * product's own {@link OutboxPruner} and {@link CursorAssigner} against an embedded PostgreSQL with the product's
 * schema. Also prints the bytes per row on disk, the dry run's time, the writers' rate before and during the
 * prune, and the longest any assigner batch took while the prune ran (it shares the cursor-state row with it).
 * A benchmark, not a test: it prints figures and asserts nothing about speed.
 */
public final class PruneBenchmark {

    private static final int ROWS = Integer.getInteger("bench.rows", 1_000_000);
    private static final int WRITERS = Integer.getInteger("bench.writers", 4);
    /** Writes per second of all writers together: a busy application, three times the fan-out benchmark's load. */
    private static final int WRITE_RATE = Integer.getInteger("bench.write-rate", 200);
    private static final List<Integer> BATCH_SIZES = Arrays.stream(System.getProperty("bench.batch-sizes", "10000,1000")
            .split(",")).map(String::trim).map(Integer::valueOf).toList();

    private PruneBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        try {
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(TestDatabase.url());
            source.setUser("postgres");
            SchemaMigrator.migrate(source);
            System.out.printf("%nPruning a %,d-row outbox (every row past max-age) while %d writers (%d writes/s together)"
                    + " and the assigner run%n", ROWS, WRITERS, WRITE_RATE);
            System.out.printf("%-11s %12s %10s %12s %14s %16s %16s %18s%n", "batch size", "rows/s", "batches",
                    "total ms", "dry run ms", "writes/s before", "writes/s during", "assigner max ms");
            for (int batchSize : BATCH_SIZES) {
                measure(source, batchSize);
            }
        } finally {
            TestDatabase.stop();
        }
    }

    private static void measure(PGSimpleDataSource source, int batchSize) throws Exception {
        try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
            // What the previous round left (its newest rows) is old too, so the whole outbox is past max-age.
            statement.execute("UPDATE streams_outbox SET created_at = now() - interval '2 days'");
            // Rows like the demo's: a model, a primary key, two changed fields and an actor; all two days old.
            for (int done = 0; done < ROWS; done += 100_000) {
                statement.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata, created_at)"
                        + " SELECT 'store.CustomerOrder', (g % 50000)::text, 'updated', '{status,note}',"
                        + " '{\"actor\":\"alice\",\"correlation_id\":\"3f1c2a\"}', now() - interval '2 days'"
                        + " FROM generate_series(1, " + Math.min(100_000, ROWS - done) + ") g");
            }
            // Statistics first: planned against an empty table, each assignment batch would scan the whole backlog.
            statement.execute("VACUUM ANALYZE streams_outbox");
            new CursorAssigner(10_000, "object_streams_cursors").assignAll(connection);
            statement.execute("VACUUM ANALYZE streams_outbox");
            if (batchSize == BATCH_SIZES.get(0)) {
                try (ResultSet rs = statement.executeQuery("SELECT pg_total_relation_size('streams_outbox'), count(*) FROM streams_numbered")) {
                    rs.next();
                    System.out.printf("(on disk with its indexes: %,d bytes per row)%n", rs.getLong(1) / rs.getLong(2));
                }
            }
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        AtomicLong assignerMaxNanos = new AtomicLong();
        AtomicBoolean measuringAssigner = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            threads.add(started(() -> write(source, running, writes)));
        }
        threads.add(started(() -> assign(source, running, measuringAssigner, assignerMaxNanos)));
        try {
            Thread.sleep(2_000);
            long before = writes.get();
            Thread.sleep(3_000);
            double ratesBefore = (writes.get() - before) / 3.0;

            PruneOutcome dry;
            try (Connection connection = source.getConnection()) {
                dry = OutboxPruner.run(connection, Duration.ofDays(1), 0, batchSize, true, () -> true);
            }
            long writesAtStart = writes.get();
            measuringAssigner.set(true);
            PruneOutcome outcome;
            try (Connection connection = source.getConnection()) {
                outcome = OutboxPruner.run(connection, Duration.ofDays(1), 0, batchSize, false, () -> true);
            }
            measuringAssigner.set(false);
            double seconds = outcome.took().toNanos() / 1e9;
            double ratesDuring = (writes.get() - writesAtStart) / seconds;
            if (outcome.rows() < ROWS - 1) {
                throw new IllegalStateException("pruned " + outcome.rows() + " of " + ROWS + ": " + outcome);
            }
            System.out.printf("%-11d %,12.0f %,10d %,12d %,14d %,16.0f %,16.0f %,18.1f%n", batchSize, outcome.rows() / seconds,
                    outcome.batches(), outcome.took().toMillis(), dry.took().toMillis(), ratesBefore, ratesDuring,
                    assignerMaxNanos.get() / 1e6);
        } finally {
            running.set(false);
            for (Thread thread : threads) {
                thread.join();
            }
        }
        // Leave an empty outbox (but the newest rows) for the next batch size.
        try (Connection connection = source.getConnection()) {
            new CursorAssigner(10_000, "object_streams_cursors").assignAll(connection);
            OutboxPruner.run(connection, null, 1, 100_000, false, () -> true);
            try (Statement statement = connection.createStatement()) {
                statement.execute("VACUUM ANALYZE streams_outbox");
            }
        }
    }

    private static Thread started(Runnable work) {
        Thread thread = new Thread(work);
        thread.start();
        return thread;
    }

    private static void write(PGSimpleDataSource source, AtomicBoolean running, AtomicLong writes) {
        try (Connection connection = source.getConnection(); PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                        + " VALUES ('store.CustomerOrder', ?, 'updated', '{status}', '{\"actor\":\"bob\"}')")) {
            long n = 0;
            long intervalNanos = 1_000_000_000L * WRITERS / WRITE_RATE;
            long next = System.nanoTime();
            while (running.get()) {
                insert.setString(1, Long.toString(n++ % 50_000));
                insert.executeUpdate();
                writes.incrementAndGet();
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void assign(PGSimpleDataSource source, AtomicBoolean running, AtomicBoolean measuring, AtomicLong maxNanos) {
        CursorAssigner assigner = new CursorAssigner(1000, "object_streams_cursors");
        try (Connection connection = source.getConnection()) {
            while (running.get()) {
                long start = System.nanoTime();
                int assigned = assigner.assignBatch(connection);
                long took = System.nanoTime() - start;
                if (measuring.get()) {
                    maxNanos.accumulateAndGet(took, Math::max);
                }
                if (assigned == 0) {
                    Thread.sleep(10);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
