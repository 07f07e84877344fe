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
 */
final class ScaleOutOracle {

    static final String MODEL = "store.CustomerOrder";

    /** Indexes into {@link #faults}, for the self-test. */
    private static final int OUT_OF_ORDER = 2;
    private static final int NOT_OWED = 3;

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

    private final NavigableMap<Long, Row> rows;

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

    private void check(Tally tally, ReceivedCursors.Log log, long epochMicrosAtNanoZero) {
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

    /**
     * Shows that the check can fail, one case per kind of fault, each on a doctored copy of an honest log that must
     * count one fault of that kind more than the log itself does: a dropped and a doubled event, two adjacent events
     * swapped, and an event leaked to a connection that is not owed it. Throws, failing the benchmark, when a case is
     * not caught; prints one line per case, or why the leak case had nothing to leak.
     */
    void selfTest(List<ReceivedCursors.Log> logs) {
        ReceivedCursors.Log log = logs.stream()
                .filter(l -> l.user().equals("carol") && l.resyncedThrough() < 0 && l.cursors().length >= 2)
                .findFirst().orElseThrow(() -> new IllegalStateException("no carol connection without a resync"
                        + " received two events; the check would pass with nothing to check"));
        selfTestDropAndDouble(log);
        selfTestReorder(log);
        selfTestLeak(logs);
    }

    /**
     * Shows that the check can fail: a carol connection's log (every row is owed to her; one without a resync) with
     * its first event dropped and its last received twice must count one loss and one duplicate more than the log
     * itself does.
     */
    private void selfTestDropAndDouble(ReceivedCursors.Log log) {
        Tally honest = checkAlone(log);
        int n = log.cursors().length;
        long[] cursors = Arrays.copyOfRange(log.cursors(), 1, n + 1);
        long[] arrivals = Arrays.copyOfRange(log.arrivals(), 1, n + 1);
        cursors[n - 1] = cursors[n - 2];
        arrivals[n - 1] = arrivals[n - 2];
        Tally broken = checkAlone(withEvents(log, cursors, arrivals));
        if (broken.lost != honest.lost + 1 || broken.duplicates != honest.duplicates + 1) {
            throw new IllegalStateException("the oracle missed a dropped and a duplicated event: " + broken.failures);
        }
        System.out.printf("oracle self-test: a carol connection's log with its first of %d events dropped and its last"
                + " doubled is caught (%s)%n", n, broken.failures.get(0));
    }

    /**
     * The same log with its last two events swapped must count one event out of order more than the log itself does,
     * and nothing else more: every event is still owed and received once, only the order is wrong, so the check must
     * report it as a reorder, not as a loss or a duplicate. Two adjacent events (the last two), the smallest reorder
     * there is. The arrival times stay in the order they came: the events are reordered, not the clock.
     */
    private void selfTestReorder(ReceivedCursors.Log log) {
        Tally honest = checkAlone(log);
        int n = log.cursors().length;
        long[] cursors = log.cursors().clone();
        cursors[n - 2] = log.cursors()[n - 1];
        cursors[n - 1] = log.cursors()[n - 2];
        Tally broken = checkAlone(withEvents(log, cursors, log.arrivals()));
        requireCaught("two adjacent events swapped", honest, broken, OUT_OF_ORDER);
        System.out.printf("oracle self-test: a carol connection's log with its last two of %d events (cursors %d and"
                + " %d) swapped is caught (%s)%n", n, cursors[n - 1], cursors[n - 2], broken.failures.get(0));
    }

    /**
     * A connection's log with one event added that its user is not owed must count one event not owed more than the
     * log itself does, and nothing else more. The event is a row the oracle read, numbered after the connection's
     * {@code subscribed}, of an order the user may not read ({@link #owes}): in this benchmark, where every order
     * is alice's, a bob connection given one of alice's rows. It is added in cursor order, so that the leak is not
     * also counted as a reorder. When no subscribed connection lacks any row the oracle read (every row is owed to
     * every connection's user, as when every connection is alice's or carol's), there is nothing honest to leak: the
     * case is reported as not applicable, with the reason, never passed.
     */
    private void selfTestLeak(List<ReceivedCursors.Log> logs) {
        for (ReceivedCursors.Log log : logs) {
            if (log.subscribed() < 0) {
                continue;
            }
            for (Row row : rows.tailMap(log.subscribed(), false).values()) {
                if (!owes(log.user(), row) && Arrays.stream(log.cursors()).noneMatch(c -> c == row.cursor())) {
                    selfTestLeak(log, row);
                    return;
                }
            }
        }
        System.out.printf("oracle self-test: the leak case is not applicable: of the %d rows the oracle read, every"
                + " one after a subscribed connection's cursor is owed to that connection's user (%d connections), so"
                + " no row is an event some connection is not owed%n", rows.size(), logs.size());
    }

    /** The leak case on one log: {@code row}'s event, which the log's user is not owed, added in cursor order. */
    private void selfTestLeak(ReceivedCursors.Log log, Row row) {
        Tally honest = checkAlone(log);
        int n = log.cursors().length;
        int at = 0;
        while (at < n && log.cursors()[at] < row.cursor()) {
            at++;
        }
        long[] cursors = new long[n + 1];
        long[] arrivals = new long[n + 1];
        System.arraycopy(log.cursors(), 0, cursors, 0, at);
        System.arraycopy(log.cursors(), at, cursors, at + 1, n - at);
        System.arraycopy(log.arrivals(), 0, arrivals, 0, at);
        System.arraycopy(log.arrivals(), at, arrivals, at + 1, n - at);
        cursors[at] = row.cursor();
        // Never read (latency is taken only for owed events); a neighbour's time keeps the arrivals in order.
        arrivals[at] = at > 0 ? log.arrivals()[at - 1] : n > 0 ? log.arrivals()[0] : System.nanoTime();
        Tally broken = checkAlone(withEvents(log, cursors, arrivals));
        requireCaught("an event leaked to a connection not owed it", honest, broken, NOT_OWED);
        System.out.printf("oracle self-test: a %s connection's log of %d events with an event of %s's order %s"
                + " (cursor %d) added is caught (%s)%n", log.user(), n, row.owner(), row.pk(), row.cursor(),
                broken.failures.get(0));
    }

    /** A tally's faults: lost, duplicates, out of order, not owed. */
    private static long[] faults(Tally tally) {
        return new long[] {tally.lost, tally.duplicates, tally.outOfOrder, tally.notOwed};
    }

    /**
     * Throws unless {@code broken} counts one fault of the kind at {@code kind} of {@link #faults} more than
     * {@code honest} and as many of every other kind: a fault must be caught, and as what it is.
     */
    private static void requireCaught(String fault, Tally honest, Tally broken, int kind) {
        long[] expected = faults(honest);
        expected[kind]++;
        if (!Arrays.equals(faults(broken), expected)) {
            throw new IllegalStateException("the oracle missed " + fault + ": lost, duplicates, out of order and not"
                    + " owed were " + Arrays.toString(faults(honest)) + " for the honest log, "
                    + Arrays.toString(faults(broken)) + " for the doctored one, " + Arrays.toString(expected)
                    + " expected: " + broken.failures);
        }
    }

    /** One log checked on its own. */
    private Tally checkAlone(ReceivedCursors.Log log) {
        Tally tally = new Tally("self-test");
        check(tally, log, 0);
        return tally;
    }

    /** The log with other events. */
    private static ReceivedCursors.Log withEvents(ReceivedCursors.Log log, long[] cursors, long[] arrivals) {
        return new ReceivedCursors.Log(log.user(), log.index(), log.subscribed(), log.resyncedThrough(), log.ended(),
                cursors, arrivals);
    }
}
