package io.objectstreams.it.bench;

import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * What each subscriber of {@link ScaleOutBenchmark} was owed, read from the database, and how what it received
 * ({@link ReceivedCursors}) falls short of it.
 *
 * <p>The outbox is the record of what was committed: the view {@code streams_numbered} (schema V7) lists every
 * outbox row with its cursor. A model subscription on {@code store.CustomerOrder} opened without a cursor is owed
 * every row of that model numbered after the cursor of its {@code subscribed} whose order its user may read, as the
 * demo's {@code OrderVisibility} decides: the owner and staff. So alice is owed every row of her orders (the writers
 * change only hers), carol every row, bob none. The writers change only an order's note, which decides no
 * subscription (the owner is the policy's key; a model subscription has no filter), so protocol.md's batch rules
 * send each such row as itself, whatever it shared a batch with: none may be coalesced away. The benchmark deletes
 * no order and changes no owner, so the owner read at the end was the owner at every row.
 *
 * <p>Per connection it counts: <b>lost</b>, an owed row not received (rows through the cursor of a
 * {@code resync_required} are accounted for by it); <b>duplicates</b>, a cursor received again; <b>out of order</b>,
 * a cursor not above every one received before it; <b>not owed</b>, a cursor that is no owed row (an order the user
 * may not read, a row at or before the subscription's cursor, a cursor the outbox does not have).
 * {@link ScaleOutOracleSelfTest} shows that this check can fail.
 */
final class ScaleOutOracle {

    static final String MODEL = "store.CustomerOrder";

    /** One numbered row: its order, the order's owner, and when it was inserted (µs since the epoch). */
    record Row(long cursor, String pk, String owner, long insertedMicros) {
    }

    /** One instance's connections: what they were owed, what they received, how they fell short. */
    static final class Tally {
        final String instance;
        int connections;
        int resynced;
        int ended;
        long owed;
        long received;
        long lost;
        long duplicates;
        long outOfOrder;
        long notOwed;
        final List<String> failures = new ArrayList<>();
        private long[] latencies = new long[1024];
        private int latencyCount;

        Tally(String instance) {
            this.instance = instance;
        }

        /** Every owed event's time from its row's insert to its arrival, in ns. */
        long[] latencies() {
            return Arrays.copyOf(latencies, latencyCount);
        }

        private void latency(long nanos) {
            if (latencyCount == latencies.length) {
                latencies = Arrays.copyOf(latencies, latencyCount * 2);
            }
            latencies[latencyCount++] = nanos;
        }
    }

    /** The rows read, by cursor. */
    final NavigableMap<Long, Row> rows;

    private ScaleOutOracle(NavigableMap<Long, Row> rows) {
        this.rows = rows;
    }

    /** The rows of {@link #MODEL} numbered after {@code after}, with their orders' owners. */
    static ScaleOutOracle read(long after) throws SQLException {
        NavigableMap<Long, Row> rows = new TreeMap<>();
        String sql = "SELECT n.cursor, n.subject_pk, o.owner, (extract(epoch FROM n.created_at) * 1000000)::bigint"
                + " FROM streams_numbered n LEFT JOIN store_order o ON o.id::text = n.subject_pk"
                + " WHERE n.model = ? AND n.cursor > ? ORDER BY n.cursor";
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, MODEL);
            s.setLong(2, after);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Row row = new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4));
                    if (row.owner() == null) {
                        throw new IllegalStateException("cursor " + row.cursor() + " names order " + row.pk()
                                + ", which does not exist; the benchmark deletes no order");
                    }
                    rows.put(row.cursor(), row);
                }
            }
        }
        return new ScaleOutOracle(rows);
    }

    /** Outbox rows of any model that have no cursor yet. */
    static long unnumbered() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM streams_numbered WHERE cursor IS NULL")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The last cursor the assigner handed out. */
    static long lastCursor(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT last_cursor FROM streams_cursor_state WHERE id = 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    int rows() {
        return rows.size();
    }

    static boolean owes(String user, Row row) {
        return user.equals("carol") || user.equals(row.owner());
    }

    /** Checks one instance's connections. */
    Tally check(String instance, List<ReceivedCursors.Log> logs) {
        Instant now = Instant.now();
        // Arrivals are System.nanoTime(); the rows' insert times are the database's clock, this machine's.
        long epochMicrosAtNanoZero = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000 - System.nanoTime() / 1000;
        Tally tally = new Tally(instance);
        for (ReceivedCursors.Log log : logs) {
            check(tally, log, epochMicrosAtNanoZero);
        }
        return tally;
    }

    /**
     * Adds one connection's log to {@code tally}. {@code epochMicrosAtNanoZero} puts the arrivals on the rows' clock,
     * for the latencies; callers that do not read the latencies pass 0.
     */
    void check(Tally tally, ReceivedCursors.Log log, long epochMicrosAtNanoZero) {
        long duplicates = 0;
        long outOfOrder = 0;
        long notOwed = 0;
        Set<Long> seen = new HashSet<>();
        long highest = Long.MIN_VALUE;
        for (int i = 0; i < log.cursors().length; i++) {
            long cursor = log.cursors()[i];
            if (!seen.add(cursor)) {
                duplicates++;
                continue;
            }
            if (cursor <= highest) {
                outOfOrder++;
            }
            highest = Math.max(highest, cursor);
            Row row = rows.get(cursor);
            if (row == null || cursor <= log.subscribed() || !owes(log.user(), row)) {
                notOwed++;
            } else {
                tally.latency((log.arrivals()[i] / 1000 + epochMicrosAtNanoZero - row.insertedMicros()) * 1000);
            }
        }
        long[] owedLost = owedAndLost(log, seen);
        long owed = owedLost[0];
        long lost = owedLost[1];
        long firstLost = owedLost[2];
        tally.connections++;
        tally.resynced += log.resyncedThrough() >= 0 ? 1 : 0;
        tally.ended += log.ended() ? 1 : 0;
        tally.owed += owed;
        tally.received += log.cursors().length;
        tally.lost += lost;
        tally.duplicates += duplicates;
        tally.outOfOrder += outOfOrder;
        tally.notOwed += notOwed;
        if (log.subscribed() < 0 || lost + duplicates + outOfOrder + notOwed > 0) {
            tally.failures.add(String.format("%s connection %d (%s, subscribed at cursor %d%s): lost %d of %d owed"
                            + " (first at cursor %d), duplicates %d, out of order %d, not owed %d", tally.instance,
                    log.index(), log.user(), log.subscribed(), log.ended() ? ", ended by the server" : "", lost, owed,
                    firstLost, duplicates, outOfOrder, notOwed));
        }
    }

    /** The rows owed to the connection, those of them it lacks, and the first it lacks (-1 when none). */
    private long[] owedAndLost(ReceivedCursors.Log log, Set<Long> seen) {
        long owed = 0;
        long lost = 0;
        long firstLost = -1;
        for (Row row : rows.tailMap(log.subscribed(), false).values()) {
            if (owes(log.user(), row)) {
                owed++;
                if (row.cursor() > log.resyncedThrough() && !seen.contains(row.cursor())) {
                    lost++;
                    firstLost = firstLost < 0 ? row.cursor() : firstLost;
                }
            }
        }
        return new long[] {owed, lost, firstLost};
    }

    /** Connections, among all instances', that have not yet received every row they are owed. */
    int incomplete(List<List<ReceivedCursors.Log>> instances) {
        int incomplete = 0;
        for (List<ReceivedCursors.Log> logs : instances) {
            Tally tally = new Tally("");
            for (ReceivedCursors.Log log : logs) {
                long lostBefore = tally.lost;
                check(tally, log, 0);
                incomplete += tally.lost > lostBefore ? 1 : 0;
            }
        }
        return incomplete;
    }
}
