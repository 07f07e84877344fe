package io.objectstreams.it.bench;

import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.internal.trigger.TableMapping;
import io.objectstreams.internal.trigger.TriggerSql;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code mvn -Pbench package exec:java@trigger-capture}: what trigger capture costs a write, against an embedded,
 * durable PostgreSQL (fsync and synchronous commit on). One table of {@code bench.rows} (1,000,000) rows, written
 * three ways:
 * <ul>
 * <li><b>plain</b>: no capture;</li>
 * <li><b>trigger</b>: the capture triggers Object Streams generates ({@link TriggerSql}), installed on the table;</li>
 * <li><b>listener (database side)</b>: no trigger, and in the same transaction the one outbox insert the entity
 * listener's path makes ({@code OutboxWriter}'s JSON-array insert), followed after commit by its wakeup
 * {@code NOTIFY}: what the JPA path asks of the database, without the server's own work (for that, see
 * {@code CaptureOverheadBenchmark}).</li>
 * </ul>
 * Bulk: one {@code UPDATE} of every row, best of {@code bench.rounds}. Single rows: {@code bench.single} (2,000)
 * transactions of one {@code UPDATE} each, by primary key. The outbox is emptied between runs. A benchmark, not a
 * test: it prints figures and asserts nothing about speed.
 */
public final class TriggerCaptureBenchmark {

    private static final int ROWS = Integer.getInteger("bench.rows", 1_000_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final int SINGLE = Integer.getInteger("bench.single", 2_000);
    private static final String LISTENER_INSERT = """
            INSERT INTO streams_outbox (model, subject_pk, facet, op, changed_fields, metadata)
            SELECT r.model, r.pk, r.facet, r.op, r.changed_fields, r.metadata
              FROM ROWS FROM (jsonb_to_recordset(?::jsonb)
                     AS (model text, pk text, facet text, op text, changed_fields text[], metadata jsonb))
                   WITH ORDINALITY AS r(model, pk, facet, op, changed_fields, metadata, ord)
             ORDER BY r.ord""";

    private TriggerCaptureBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        try {
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(TestDatabase.url());
            source.setUser("postgres");
            SchemaMigrator.migrate(source);
            TableMapping mapping = new TableMapping("bench.Doc", null, "bench_doc", List.of("id"), "bench.Doc", "object",
                    false, List.of("id"), attributes());
            try (Connection c = source.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS bench_doc");
                s.execute("CREATE TABLE bench_doc (id bigint PRIMARY KEY, title text, amount int, note text)");
                s.execute("INSERT INTO bench_doc SELECT g, 'doc ' || g, g % 100, NULL FROM generate_series(1, " + ROWS + ") g");
                s.execute("VACUUM ANALYZE bench_doc");
            }
            TriggerSql triggers = new TriggerSql(mapping, Map.of(), "object_streams_events", "streams_outbox");
            System.out.printf("%nTrigger capture: a table of %,d rows; bulk is best of %d, single rows %,d transactions%n",
                    ROWS, ROUNDS, SINGLE);
            System.out.printf("%-26s %14s %10s %18s %10s%n", "path", "bulk UPDATE s", "ratio", "single ms per tx", "ratio");
            double[] plain = run(source, "plain", false);
            print("plain", plain, plain);
            double[] listener = run(source, "listener (database side)", true);
            print("listener (database side)", listener, plain);
            try (Connection c = source.getConnection(); Statement s = c.createStatement()) {
                for (String sql : triggers.install()) {
                    s.execute(sql);
                }
            }
            double[] trigger = run(source, "trigger", false);
            print("trigger", trigger, plain);
            try (Connection c = source.getConnection(); Statement s = c.createStatement()) {
                for (String sql : triggers.uninstall()) {
                    s.execute(sql);
                }
            }
            double[] again = run(source, "plain", false);
            print("plain, again", again, plain);
            outboxAlone(source, plain[0]);
        } finally {
            TestDatabase.stop();
        }
    }

    private static Map<String, List<String>> attributes() {
        Map<String, List<String>> attributes = new LinkedHashMap<>();
        attributes.put("title", List.of("title"));
        attributes.put("amount", List.of("amount"));
        attributes.put("note", List.of("note"));
        return attributes;
    }

    /** Best bulk seconds, and milliseconds per single-row transaction. */
    private static double[] run(PGSimpleDataSource source, String path, boolean listener) throws SQLException {
        double bulk = Double.MAX_VALUE;
        try (Connection c = source.getConnection()) {
            for (int round = 0; round < ROUNDS; round++) {
                reset(c);
                c.setAutoCommit(false);
                long start = System.nanoTime();
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE bench_doc SET amount = amount + 1");
                    if (listener) {
                        // The listener path's one insert for a transaction of ROWS changed objects.
                        s.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields, metadata)"
                                + " SELECT 'bench.Doc', g::text, 'updated', '{amount}', '{}' FROM generate_series(1, " + ROWS + ") g");
                    }
                }
                c.commit();
                if (listener) {
                    notifyAfterCommit(c);
                }
                bulk = Math.min(bulk, (System.nanoTime() - start) / 1e9);
                c.setAutoCommit(true);
            }
            reset(c);
            long start = System.nanoTime();
            try (PreparedStatement update = c.prepareStatement("UPDATE bench_doc SET amount = amount + 1 WHERE id = ?");
                 PreparedStatement insert = c.prepareStatement(LISTENER_INSERT)) {
                for (int i = 0; i < SINGLE; i++) {
                    long id = 1 + (i * 7919L) % ROWS;
                    c.setAutoCommit(false);
                    update.setLong(1, id);
                    update.executeUpdate();
                    if (listener) {
                        insert.setString(1, "[{\"model\":\"bench.Doc\",\"pk\":\"" + id + "\",\"facet\":\"object\","
                                + "\"op\":\"updated\",\"changed_fields\":[\"amount\"],\"metadata\":{\"actor\":\"bench\"}}]");
                        insert.executeUpdate();
                    }
                    c.commit();
                    c.setAutoCommit(true);
                    if (listener) {
                        notifyAfterCommit(c);
                    }
                }
            }
            double single = (System.nanoTime() - start) / 1e6 / SINGLE;
            reset(c);
            return new double[] {bulk, single};
        }
    }

    /**
     * The floor of any capture that writes one outbox row per changed row: inserting {@code ROWS} rows into the
     * outbox alone, as the trigger does (explicit ids, no sequence), in one statement and one transaction.
     */
    private static void outboxAlone(PGSimpleDataSource source, double plainBulk) throws SQLException {
        double best = Double.MAX_VALUE;
        try (Connection c = source.getConnection(); Statement s = c.createStatement()) {
            for (int round = 0; round < ROUNDS; round++) {
                reset(c);
                long start = System.nanoTime();
                s.executeUpdate("INSERT INTO streams_outbox (id, model, subject_pk, facet, op, changed_fields)"
                        + " OVERRIDING SYSTEM VALUE SELECT -id, 'bench.Doc', id::text, 'object', 'updated', '{amount}'"
                        + " FROM bench_doc");
                best = Math.min(best, (System.nanoTime() - start) / 1e9);
            }
            reset(c);
        }
        System.out.printf("%-26s %14.2f %9.2fx   (the outbox rows alone: the floor of one row per changed row)%n",
                "outbox insert alone", best, best / plainBulk);
    }

    private static void notifyAfterCommit(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("NOTIFY object_streams_events");
        }
    }

    private static void reset(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("TRUNCATE streams_outbox");
            s.execute("VACUUM ANALYZE bench_doc");
        }
    }

    private static void print(String path, double[] figures, double[] plain) {
        System.out.printf("%-26s %14.2f %9.2fx %18.3f %9.2fx%n", path, figures[0], figures[0] / plain[0], figures[1],
                figures[1] / plain[1]);
    }
}
