package io.objectstreams.it.soak;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What happened to one subscription's connections that its log ({@link SoakSubscription.Seen}) does not hold: which
 * server a connection went to and how it resumed (a new URL, or {@code Last-Event-ID}), whether it opened, why it
 * ended and the last SSE {@code id:} it had read, which server answered each refetch, and the error frames. The log
 * holds the frames themselves (events, resyncs, refetches, starts, {@code subscribed}), in full, for the oracle;
 * this journal only adds the lifecycle around them, so that a {@code [convergence]} violation can tell the story
 * of the subscription ({@link ConvergenceReport}) after the run's database is gone.
 *
 * <p>Bounded: the last {@link #CAPACITY} entries are kept, older ones are dropped and counted, and a detail is cut
 * at {@link #DETAIL} characters. An entry is a record of about 40 bytes and a detail of typically 50 characters:
 * about 64 KB per subscription when full, 80 MB for the long soak's 1,237 subscriptions if all were (at most
 * 150 KB each with every detail at its cut). The long soak opens about 64 connections per client, and each leaves
 * two or three entries per subscription, so about 200 entries, 25 KB, are expected per subscription (30 MB in
 * all); the log it sits beside holds every event and is much larger.
 */
final class SoakJournal {

    /** Entries kept per subscription, at most. */
    static final int CAPACITY = 512;
    /** Characters of an entry's detail kept, at most (an exception's message can be long). */
    static final int DETAIL = 200;

    /** What an entry records. */
    enum What {
        /** The connection is open (an SSE stream answered 200; a WebSocket handshake completed). */
        OPEN,
        /** The connection was not made, or the server answered it with an error status. */
        REFUSED,
        /** The connection ended; the detail says why, and on SSE the last frame {@code id:} read. */
        ENDED,
        /** One REST read of a refetch: the server asked, its status and cursor. */
        READ,
        /** An {@code error} frame naming, or sent on the connection of, this subscription. */
        ERROR
    }

    /**
     * One entry.
     *
     * @param at       the wall clock in microseconds, the unit of the orders' history and of {@code Seen.received}
     * @param position the size of the subscription's log when it was recorded: it happened after that many entries
     * @param server   the slot's name ({@link Cluster#name}), or {@code null}
     */
    record Entry(long at, int position, What what, String server, String detail) {
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long dropped;

    /** Records an entry at {@code position}; drops the oldest when full. */
    synchronized void add(int position, What what, String server, String detail) {
        if (entries.size() == CAPACITY) {
            entries.removeFirst();
            dropped++;
        }
        String kept = detail == null || detail.length() <= DETAIL ? detail : detail.substring(0, DETAIL) + "...";
        entries.addLast(new Entry(SoakSubscription.Seen.now(), position, what, server, kept));
    }

    synchronized List<Entry> copy() {
        return new ArrayList<>(entries);
    }

    /** How many entries were dropped to keep within {@link #CAPACITY}. */
    synchronized long dropped() {
        return dropped;
    }
}
