package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ResyncReason;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this instance has sent its clients since it started (events, resyncs by reason, events dropped for slow
 * clients) and what it holds now (SSE sessions, subscriptions by transport), kept as it changes so that health,
 * which may be asked many times a second, costs the same whatever the number of connections; for operators.
 */
final class DeliveryCounts {

    private final LongAdder delivered = new LongAdder();
    private final Map<String, LongAdder> resyncs = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> ended = new ConcurrentHashMap<>();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder sseSessions = new LongAdder();
    private final LongAdder subscriptions = new LongAdder();
    private final LongAdder sseSubscriptions = new LongAdder();

    /** An event was handed to the transport. */
    void delivered() {
        delivered.increment();
    }

    /** A {@code resync_required} was queued for a subscription. */
    void resync(ResyncReason reason) {
        resyncs.computeIfAbsent(reason.wireName(), r -> new LongAdder()).increment();
    }

    /** A connection of {@code transport} ended, for {@code cause}. */
    void ended(String transport, String cause) {
        ended.computeIfAbsent(transport + "." + cause, c -> new LongAdder()).increment();
    }

    /** Ended connections by {@code transport.cause}, in name order. */
    Map<String, Long> endedByCause() {
        Map<String, Long> byCause = new TreeMap<>();
        ended.forEach((cause, count) -> byCause.put(cause, count.sum()));
        return byCause;
    }

    /** A queued event was dropped for a client that is not keeping up. */
    void dropped() {
        dropped.increment();
    }

    /** An SSE session opened ({@code 1}) or ended ({@code -1}). */
    void sseSession(int delta) {
        sseSessions.add(delta);
    }

    /** Subscriptions of a connection of {@code sse} or WebSocket were added ({@code delta > 0}) or ended. */
    void subscriptions(boolean sse, int delta) {
        subscriptions.add(delta);
        if (sse) {
            sseSubscriptions.add(delta);
        }
    }

    long droppedEvents() {
        return dropped.sum();
    }

    int sseSessions() {
        return sseSessions.intValue();
    }

    int subscriptions() {
        return subscriptions.intValue();
    }

    int sseSubscriptions() {
        return sseSubscriptions.intValue();
    }

    long deliveredEvents() {
        return delivered.sum();
    }

    /** By reason, in name order. */
    Map<String, Long> resyncsByReason() {
        Map<String, Long> byReason = new TreeMap<>();
        resyncs.forEach((reason, count) -> byReason.put(reason, count.sum()));
        return byReason;
    }
}
