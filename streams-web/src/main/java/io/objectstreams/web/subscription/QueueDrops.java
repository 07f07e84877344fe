package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ResyncReason;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * What a connection's queue gives up when its client falls behind (G10, G15): every queued event, each subscription
 * that lost one getting a single {@code slow_consumer} marker in their place, whose cursor moves forward with later
 * losses. Keeps the pending markers and the count of dropped events; the queue calls it under its own lock.
 */
final class QueueDrops {

    private static final Logger LOG = Logger.getLogger(QueueDrops.class.getName());

    private final DeliveryCounts counts;
    /** Pending {@code slow_consumer} markers, per subscription (not per id: an id may be reused after it ended). */
    private final Map<Subscription, QueueEntry> slowResyncs = new HashMap<>();
    private long dropped;

    QueueDrops(DeliveryCounts counts) {
        this.counts = counts;
    }

    /** One event was refused before it was queued. */
    void counted() {
        dropped++;
        counts.dropped();
    }

    /**
     * Drops every event of {@code queue}, telling the queue through {@code removed}; each subscription that lost one
     * ({@code affected} holds any already lost, with its newest cursor) gets one marker through {@code added}, or its
     * pending marker moves forward.
     */
    void dropEvents(Deque<QueueEntry> queue, Map<Subscription, Long> affected, Consumer<QueueEntry> removed,
                    Consumer<QueueEntry> added, String connection) {
        for (Iterator<QueueEntry> it = queue.iterator(); it.hasNext(); ) {
            QueueEntry entry = it.next();
            if (entry.kind == QueueEntry.Kind.EVENT) {
                affected.merge(entry.subscription, entry.cursor, Math::max);
                it.remove();
                removed.accept(entry);
                counted();
            }
        }
        if (affected.isEmpty()) {
            return;
        }
        affected.forEach((subscription, newest) -> {
            QueueEntry pending = slowResyncs.get(subscription);
            if (pending != null) {
                pending.cursor = Math.max(pending.cursor, newest);
            } else {
                QueueEntry resync = new QueueEntry(QueueEntry.Kind.SLOW_CONSUMER, subscription, null, null, null,
                        newest);
                slowResyncs.put(subscription, resync);
                added.accept(resync);
                counts.resync(ResyncReason.SLOW_CONSUMER);
            }
        });
        LOG.fine(() -> "Connection " + connection + " is not keeping up: dropped its queued events, "
                + affected.size() + " subscriptions told to resync (slow_consumer)");
    }

    /** The subscription's marker left the queue (sent, or dropped with the subscription). */
    void markerSent(Subscription subscription) {
        slowResyncs.remove(subscription);
    }

    long dropped() {
        return dropped;
    }

    void clear() {
        slowResyncs.clear();
    }
}
