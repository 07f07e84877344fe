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
 * <p>Only reads for the newest registration cursor are kept (no subscription registers at an older one again), at
 * most {@link #MAX_READS} of them, and only those that are small: a member set of at most {@link #MAX_PKS} pks.
 */
final class SharedReads {

    static final int MAX_READS = 4_096;
    static final int MAX_PKS = 1_000;

    private final Map<Object, Object> reads = new HashMap<>();
    private long cursor = Long.MIN_VALUE;

    /** What was read for {@code key} by a subscription registered at {@code registeredAt}, or {@code null}. */
    synchronized Object get(Object key, long registeredAt) {
        return registeredAt == cursor ? reads.get(key) : null;
    }

    /** Keeps {@code answer} (of {@code pks} pks) for the subscriptions registered at {@code registeredAt}. */
    synchronized void keep(Object key, long registeredAt, Object answer, int pks) {
        if (pks > MAX_PKS) {
            return;
        }
        if (registeredAt > cursor) {
            reads.clear();
            cursor = registeredAt;
        }
        if (registeredAt == cursor && reads.size() < MAX_READS) {
            reads.put(key, answer);
        }
    }
}
