package io.objectstreams.web.subscription;

import io.objectstreams.internal.health.TransportCounts;
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

    /** Told of each event sent, with its row's {@code created_at}: the write-to-delivery latency. */
    interface Sent {
        void sent(String transport, long recordedAtMillis);
    }

    private final Sent sent;
    private final LongAdder deliveredWebSocket = new LongAdder();
    private final LongAdder deliveredSse = new LongAdder();
    private final Map<String, LongAdder> opened = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> refused = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> refusedBySetting = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> resyncs = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> ended = new ConcurrentHashMap<>();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder sseSessions = new LongAdder();
    private final LongAdder subscriptions = new LongAdder();
    private final LongAdder sseSubscriptions = new LongAdder();

    DeliveryCounts() {
        this((transport, recordedAtMillis) -> { });
    }

    DeliveryCounts(Sent sent) {
        this.sent = sent;
    }

    /** An event was sent over {@code transport}; its latency counts unless {@code recordedAtMillis} is -1. */
    void delivered(String transport, long recordedAtMillis) {
        (transport.equals("sse") ? deliveredSse : deliveredWebSocket).increment();
        if (recordedAtMillis >= 0) {
            sent.sent(transport, recordedAtMillis);
        }
    }

    /** A connection of {@code transport} was admitted. */
    void opened(String transport) {
        opened.computeIfAbsent(transport, t -> new LongAdder()).increment();
    }

    /**
     * A request or connection was refused with the protocol error {@code code}; {@code setting} names the limit
     * that refused it, or is {@code null} when no limit did (a malformed request, a denied read).
     */
    void refused(String code, String setting) {
        refused.computeIfAbsent(code, c -> new LongAdder()).increment();
        if (setting != null) {
            refusedBySetting.computeIfAbsent(setting, c -> new LongAdder()).increment();
        }
    }

    /** What the transports did since start, for metrics. */
    TransportCounts transportCounts() {
        // One adder per transport: a difference of two sums read apart could go down between two exports.
        return new TransportCounts(Map.of("websocket", deliveredWebSocket.sum(), "sse", deliveredSse.sum()),
                sums(opened), endedByCause(), sums(refused), sums(refusedBySetting));
    }

    private static Map<String, Long> sums(Map<String, LongAdder> counts) {
        Map<String, Long> sums = new TreeMap<>();
        counts.forEach((key, count) -> sums.put(key, count.sum()));
        return sums;
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
        return sums(ended);
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
        return deliveredWebSocket.sum() + deliveredSse.sum();
    }

    /** By reason, in name order. */
    Map<String, Long> resyncsByReason() {
        return sums(resyncs);
    }
}
