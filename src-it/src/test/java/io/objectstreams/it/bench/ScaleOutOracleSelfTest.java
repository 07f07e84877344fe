package io.objectstreams.it.bench;

import io.objectstreams.it.bench.ScaleOutOracle.Row;
import io.objectstreams.it.bench.ScaleOutOracle.Tally;
import java.util.Arrays;
import java.util.List;

/**
 * Checks that a {@link ScaleOutOracle} can fail: that it catches a dropped, a doubled, a reordered and a leaked event,
 * each as what it is, on doctored copies of the honest logs it has just passed. An oracle that cannot fail proves
 * nothing: {@link ScaleOutBenchmark} runs this after every connection passed, so that a pass means the check looked.
 */
final class ScaleOutOracleSelfTest {

    /** Indexes into {@link #faults}, for the self-test. */
    private static final int OUT_OF_ORDER = 2;
    private static final int NOT_OWED = 3;

    private final ScaleOutOracle oracle;

    ScaleOutOracleSelfTest(ScaleOutOracle oracle) {
        this.oracle = oracle;
    }

    /**
     * Shows that the check can fail, one case per kind of fault, each on a doctored copy of an honest log that must
     * count one fault of that kind more than the log itself does: a dropped and a doubled event, two adjacent events
     * swapped, and an event leaked to a connection that is not owed it. Throws, failing the benchmark, when a case is
     * not caught; prints one line per case, or why the leak case had nothing to leak.
     */
    void run(List<ReceivedCursors.Log> logs) {
        ReceivedCursors.Log log = logs.stream()
                .filter(l -> l.user().equals("carol") && l.resyncedThrough() < 0 && l.cursors().length >= 2)
                .findFirst().orElseThrow(() -> new IllegalStateException("no carol connection without a resync"
                        + " received two events; the check would pass with nothing to check"));
        dropAndDouble(log);
        reorder(log);
        leak(logs);
    }

    /**
     * Shows that the check can fail: a carol connection's log (every row is owed to her; one without a resync) with
     * its first event dropped and its last received twice must count one loss and one duplicate more than the log
     * itself does.
     */
    private void dropAndDouble(ReceivedCursors.Log log) {
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
    private void reorder(ReceivedCursors.Log log) {
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
     * {@code subscribed}, of an order the user may not read ({@link ScaleOutOracle#owes}): in this benchmark, where
     * every order is alice's, a bob connection given one of alice's rows. It is added in cursor order, so that the
     * leak is not also counted as a reorder. When no subscribed connection lacks any row the oracle read (every row is
     * owed to every connection's user, as when every connection is alice's or carol's), there is nothing honest to
     * leak: the case is reported as not applicable, with the reason, never passed.
     */
    private void leak(List<ReceivedCursors.Log> logs) {
        for (ReceivedCursors.Log log : logs) {
            if (log.subscribed() < 0) {
                continue;
            }
            for (Row row : oracle.rows.tailMap(log.subscribed(), false).values()) {
                if (!ScaleOutOracle.owes(log.user(), row)
                        && Arrays.stream(log.cursors()).noneMatch(c -> c == row.cursor())) {
                    leak(log, row);
                    return;
                }
            }
        }
        System.out.printf("oracle self-test: the leak case is not applicable: of the %d rows the oracle read, every"
                + " one after a subscribed connection's cursor is owed to that connection's user (%d connections), so"
                + " no row is an event some connection is not owed%n", oracle.rows(), logs.size());
    }

    /** The leak case on one log: {@code row}'s event, which the log's user is not owed, added in cursor order. */
    private void leak(ReceivedCursors.Log log, Row row) {
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
        oracle.check(tally, log, 0);
        return tally;
    }

    /** The log with other events. */
    private static ReceivedCursors.Log withEvents(ReceivedCursors.Log log, long[] cursors, long[] arrivals) {
        return new ReceivedCursors.Log(log.user(), log.index(), log.subscribed(), log.resyncedThrough(), log.ended(),
                cursors, arrivals);
    }
}
