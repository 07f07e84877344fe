package io.objectstreams.web.subscription;

import java.util.HashMap;
import java.util.Map;

/**
 * What subscriptions starting at the same registration cursor read about the same scope, read once. A start's
 * reads are correct for a subscription when they were made after it registered at its cursor (every batch
 * through it fanned out without the subscription, every later one reaches it). A read made for one subscription
 * registered at cursor {@code c} was made after the batch through {@code c} was fanned out, so it is just as
 * correct for any other registered at {@code c}: it is as if that one had read a moment earlier, which
 * registration allows. A reconnect storm registers thousands of subscriptions between two batches; those of one
 * viewer (and model and filter) share their members and visibility reads here.
 *
 * <p>Only reads for the newest registration cursor are kept (no subscription registers at an older one again), for
 * at most {@link #MAX_AGE_NANOS}, at most {@link #MAX_READS} of them, and only those that are small: at most
 * {@link #MAX_PKS} pks. The keys are the server's (scopes, and pks from the outbox), never pks a client named.
 */
final class StartReadsByCursor {

    static final int MAX_READS = 4_096;
    /**
     * How long a read is shared. Registration makes a read valid for every subscription registered at its cursor as
     * far as the streamed data goes; a policy may consult more than that (a table that is not streamed, the time),
     * which changes without a batch, so a read is shared only while it is fresh.
     */
    static final long MAX_AGE_NANOS = 1_000_000_000L;
    static final int MAX_PKS = 1_000;

    private final Map<Object, Kept> reads = new HashMap<>();
    private long cursor = Long.MIN_VALUE;

    private record Kept(Object answer, long readAt) {
    }

    /** What was read for {@code key} by a subscription registered at {@code registeredAt}, or {@code null}. */
    synchronized Object get(Object key, long registeredAt) {
        Kept kept = registeredAt == cursor ? reads.get(key) : null;
        return kept == null || System.nanoTime() - kept.readAt() > MAX_AGE_NANOS ? null : kept.answer();
    }

    /**
     * Counts one more subscription registered at {@code registeredAt} asking {@code key}, and returns how many have
     * asked: within {@link #MAX_AGE_NANOS} of the first.
     */
    synchronized int count(Object key, long registeredAt) {
        if (get(key, registeredAt) instanceof int[] asked) {
            return ++asked[0];
        }
        keep(key, registeredAt, System.nanoTime(), new int[] {1}, 0);
        return 1;
    }

    /**
     * Keeps {@code answer} (of {@code pks} pks), read when {@code readAt} ({@link System#nanoTime}, taken before the
     * read began), for the subscriptions registered at {@code registeredAt}.
     */
    synchronized void keep(Object key, long registeredAt, long readAt, Object answer, int pks) {
        if (pks > MAX_PKS) {
            return;
        }
        if (registeredAt > cursor) {
            reads.clear();
            cursor = registeredAt;
        }
        if (registeredAt == cursor && (reads.size() < MAX_READS || reads.containsKey(key))) {
            reads.put(key, new Kept(answer, readAt));
        }
    }
}
