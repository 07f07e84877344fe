package io.objectstreams.internal.health;

import java.util.Map;

/**
 * The client connections of this instance, on every transport, for the health data (G13, G15).
 *
 * @param sessions        connected clients, on every transport
 * @param sseSessions     of which Server-Sent Events connections (the rest are WebSocket sessions)
 * @param subscriptions   active subscriptions over all of them
 * @param sseSubscriptions of which on Server-Sent Events connections
 * @param queuedMessages  messages waiting in their outbound queues
 * @param queuedBytes     bytes charged for those messages against the server's budget
 * @param maxQueuedBytes  the server's budget ({@code streams.outbound.max-server-bytes})
 * @param droppedEvents   events the connected clients' queues dropped for being too slow (each such loss was
 *                        answered with {@code resync_required}, reason {@code slow_consumer})
 * @param failedFanOuts   fan-outs, or parts of one, that failed since start (each answered with
 *                        {@code resync_required}, reason {@code delivery_failed}, to the subscriptions concerned)
 * @param deliveredEvents events handed to the transports since start, on every connection (gone ones included)
 * @param resyncsByReason {@code resync_required} messages queued since start, by reason
 */
public record SessionReport(int sessions, int sseSessions, int subscriptions, int sseSubscriptions, int queuedMessages,
                            long queuedBytes, long maxQueuedBytes, long droppedEvents, long failedFanOuts,
                            long deliveredEvents, Map<String, Long> resyncsByReason) {

    /** Resyncs of every reason since start. */
    public long resyncs() {
        return resyncsByReason.values().stream().mapToLong(Long::longValue).sum();
    }
}
