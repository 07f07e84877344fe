package io.objectstreams.it.bench;

import java.util.Arrays;

/**
 * What one {@link LoadClients} connection received, by cursor, when the connections were opened to log it: the
 * cursor of its {@code subscribed}, the highest cursor of its {@code resync_required}s, whether the server ended it,
 * and each event's cursor with its arrival time ({@link System#nanoTime()}), in the order the events came. For a
 * benchmark that checks every connection against the outbox ({@link ScaleOutBenchmark}).
 */
final class ReceivedCursors {

    /** One connection's log at one moment: {@code subscribed} and {@code resyncedThrough} are -1 until received. */
    record Log(String user, int index, long subscribed, long resyncedThrough, boolean ended, long[] cursors,
               long[] arrivals) {
    }

    private final String user;
    private final int index;
    private long subscribed = -1;
    private long resyncedThrough = -1;
    private boolean ended;
    private long[] cursors = new long[256];
    private long[] arrivals = new long[256];
    private int size;

    ReceivedCursors(String user, int index) {
        this.user = user;
        this.index = index;
    }

    /** The {@code "cursor":N} of a protocol message's text, or -1 when it has none. */
    static long cursorIn(String text) {
        int at = text.indexOf("\"cursor\":");
        if (at < 0) {
            return -1;
        }
        int from = at + 9;
        int to = from;
        while (to < text.length() && Character.isDigit(text.charAt(to))) {
            to++;
        }
        return to == from ? -1 : Long.parseLong(text.substring(from, to));
    }

    synchronized void subscribed(String text) {
        subscribed = cursorIn(text);
    }

    synchronized void resync(String text) {
        resyncedThrough = Math.max(resyncedThrough, cursorIn(text));
    }

    synchronized void ended() {
        ended = true;
    }

    synchronized void event(long cursor, long arrival) {
        if (size == cursors.length) {
            cursors = Arrays.copyOf(cursors, size * 2);
            arrivals = Arrays.copyOf(arrivals, size * 2);
        }
        cursors[size] = cursor;
        arrivals[size++] = arrival;
    }

    synchronized Log log() {
        return new Log(user, index, subscribed, resyncedThrough, ended, Arrays.copyOf(cursors, size),
                Arrays.copyOf(arrivals, size));
    }
}
