package io.objectstreams.it.support;

import java.net.URL;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.awaitility.core.ConditionTimeoutException;

/** Reads {@code streams_outbox} directly, as the tests' source of truth. */
public final class Outbox {

    /** One outbox row as stored. */
    public record Row(long id, Long cursor, String model, String pk, String facet, String op, List<String> changedFields,
                      long transactionId, String actor, String correlationId) {
    }

    private Outbox() {
    }

    /**
     * Waits (at most 30 s) until every committed outbox row has its cursor. On timeout the failure says how many
     * rows still wait and what the server's listener reports, so a slow assigner can be told from a stopped one.
     */
    public static void awaitAssigned(URL deployment) {
        await(deployment, "every committed row to get its cursor", () -> TestDatabase.assignedThrough() >= 0);
    }

    /**
     * As {@link #awaitAssigned(URL)}, waiting at most {@code atMost} and asking in this thread at once, then every
     * {@code pollInterval}: for a benchmark that times the wait, where the default first ask after 100 ms would show.
     */
    public static void awaitAssigned(URL deployment, Duration atMost, Duration pollInterval) {
        await(deployment, "every committed row to get its cursor", Awaitility.await().atMost(atMost)
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(pollInterval),
                () -> TestDatabase.assignedThrough() >= 0);
    }

    /**
     * Waits (at most 30 s) until every committed row has its cursor and the deployment's server has fanned them
     * all out: a subscription made afterwards starts after them, so their events cannot reach it live.
     */
    public static void awaitFannedOut(URL deployment) {
        await(deployment, "every committed row to be fanned out", () -> {
            long assigned = TestDatabase.assignedThrough();
            return assigned >= 0
                    && Health.listener(Health.root(deployment), "ready").number("lastDeliveredCursor") >= assigned;
        });
    }

    /** Waits at most 30 s, polling as Awaitility does by default. */
    private static void await(URL deployment, String what, Callable<Boolean> done) {
        await(deployment, what, Awaitility.await().atMost(Duration.ofSeconds(30)), done);
    }

    private static void await(URL deployment, String what, ConditionFactory waiting, Callable<Boolean> done) {
        long started = System.nanoTime();
        try {
            waiting.until(done);
        } catch (ConditionTimeoutException timeout) {
            throw new AssertionError("Waited " + (System.nanoTime() - started) / 1_000_000 + " ms for " + what + ": "
                    + unassignedOrUnknown() + " rows without a cursor; the listener reports "
                    + listenerReport(deployment) + "; busiest processes: " + Jvm.busiestProcesses()
                    + "; running statements: " + runningStatements(),
                    timeout);
        }
    }

    /** For a failure message: the listener's readiness check, or why it could not be read. */
    private static String listenerReport(URL deployment) {
        try {
            return Health.listener(Health.root(deployment), "ready").toString();
        } catch (RuntimeException | AssertionError e) {
            return "(unknown: " + e + ")";
        }
    }

    /** The highest row id now; rows written later have greater ids. */
    public static long mark() {
        try {
            return count("SELECT coalesce(max(id), 0) FROM streams_numbered");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** For a failure message: -1 when the database cannot say. */
    private static long unassignedOrUnknown() {
        try {
            return count("SELECT count(*) FROM streams_numbered WHERE cursor IS NULL");
        } catch (SQLException e) {
            return -1;
        }
    }

    /** The database's statements running for over a second, oldest first, with how long and their text. */
    private static String runningStatements() {
        String sql = "SELECT round(extract(epoch FROM now() - query_start)::numeric, 1) || ' s: ' || left(query, 300)"
                + " FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()"
                + " AND now() - query_start > interval '1 second' ORDER BY query_start";
        List<String> running = new ArrayList<>();
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                running.add(rs.getString(1));
            }
        } catch (SQLException e) {
            return "(unknown: " + e.getMessage() + ")";
        }
        return running.toString();
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Rows written after {@code mark}, in id order. */
    public static List<Row> since(long mark) {
        String sql = "SELECT id, cursor, model, subject_pk, facet, op, changed_fields, transaction_id,"
                + " metadata->>'actor', metadata->>'correlation_id' FROM streams_numbered WHERE id > ? ORDER BY id";
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, mark);
            List<Row> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Array fields = rs.getArray(7);
                    rows.add(new Row(rs.getLong(1), (Long) rs.getObject(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), Arrays.asList((String[]) fields.getArray()),
                            rs.getLong(8), rs.getString(9), rs.getString(10)));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
