package io.objectstreams.web.subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What fan-out owes and has handed out, shared by the sessions and the fan-out: the lock under which a batch is fanned
 * out and a subscription joins, the cursor through which batches were fanned out, and the subscriptions whose
 * members must be read again. Holds no session logic: it lets a session join without calling the fan-out, and the
 * fan-out find what sessions left for it, so neither calls back into the other.
 */
final class FanOutLedger {

    /** A subscription of a session, owed a fresh read of its members. */
    record Owed(StreamSession session, Subscription subscription) {
    }

    private long fannedOutThrough;
    /** {@link #fannedOutThrough}, for readers that must not wait for a batch in flight ({@link #throughNow}). */
    private volatile long published;
    /** Subscriptions told to resync whose members could not be read again yet; read at the next batch. */
    private final Set<Owed> stale = ConcurrentHashMap.newKeySet();

    /**
     * Runs {@code join} with no batch in flight, so a batch sees the subscription it adds entirely or not at all, and
     * returns the cursor it starts from: every batch through it was fanned out without it, every later one reaches it.
     *
     * @param delivered the cursor this instance's listener has delivered through, read once the lock is held
     */
    synchronized long join(Runnable join, LongSupplier delivered) {
        join.run();
        return Math.max(fannedOutThrough, delivered.getAsLong());
    }

    /**
     * Runs {@code fanOut} while no subscription joins, then records that batches were fanned out through
     * {@code cursor}.
     */
    synchronized void fanOut(Runnable fanOut, long cursor) {
        try {
            fanOut.run();
        } finally {
            fannedOutThrough = cursor;
            published = cursor;
        }
    }

    /** Like {@link #fanOut}, for a gap, which never moves the cursor backwards. */
    synchronized void skip(Runnable tell, long cursor) {
        tell.run();
        fannedOutThrough = Math.max(fannedOutThrough, cursor);
        published = fannedOutThrough;
    }

    /**
     * The cursor through which batches were fanned out, without waiting for one in flight: every session was handed
     * its messages of every batch through it.
     */
    long throughNow() {
        return published;
    }

    /** The cursor through which batches were fanned out; read under the lock, by the fan-out. */
    synchronized long fannedOutThrough() {
        return fannedOutThrough;
    }

    /** Records that a subscription's members must be read again before it can classify events. */
    void rereadLater(StreamSession session, Subscription subscription) {
        stale.add(new Owed(session, subscription));
    }

    /**
     * Every subscription owed a read of its members. Each stays owed until {@link #settled}: a read that fails, or
     * throws before it reaches a subscription, leaves it owed for the next batch, never silently stale.
     */
    List<Owed> stale() {
        return stale.isEmpty() ? List.of() : new ArrayList<>(stale);
    }

    /** The subscription's members were read (or it ended): it is no longer owed a read. */
    void settled(Owed owed) {
        stale.remove(owed);
    }

    /** Forgets what a closed session was owed. */
    void forget(StreamSession session) {
        if (!stale.isEmpty()) {
            stale.removeIf(owed -> owed.session() == session);
        }
    }
}
