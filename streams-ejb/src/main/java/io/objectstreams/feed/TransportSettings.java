package io.objectstreams.feed;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The validated settings every transport reads; see {@code docs/configuration.md} for each key and its default.
 *
 * @param maxSubscriptions   {@code streams.websocket.max-subscriptions}
 * @param maxFrameBytes      {@code streams.websocket.max-frame-bytes}
 * @param maxMemberPks       {@code streams.websocket.max-member-pks}
 * @param maxConnectionBytes {@code streams.outbound.max-connection-bytes}
 * @param maxServerBytes     {@code streams.outbound.max-server-bytes}
 * @param maxIdle            {@code streams.websocket.max-idle}; zero for never
 * @param pingInterval       {@code streams.websocket.ping-interval}; zero for never
 * @param sseHeartbeat       {@code streams.sse.heartbeat}: an SSE request's heartbeat when it names none
 * @param sseLifetime        {@code streams.sse.lifetime}: an SSE request's lifetime when it names none
 * @param senderThreads      {@code streams.websocket.sender-threads}
 * @param allowedOrigins     {@code streams.websocket.allowed-origins}, normalized; {@code *} for any
 * @param replayLimit        {@code streams.replay-limit}
 * @param maxConnectionMemberPks     {@code streams.websocket.max-connection-member-pks}
 * @param maxConnections             {@code streams.connections.max}
 * @param maxConnectionsPerPrincipal {@code streams.connections.max-per-principal}
 * @param cursorHeaderEverywhere     {@code streams.rest.cursor-header}
 * @param skipContainerIdleTimer     {@code streams.websocket.skip-container-idle-timer}
 */
public record TransportSettings(int maxSubscriptions, int maxFrameBytes, int maxMemberPks, long maxConnectionBytes,
                                long maxServerBytes, Duration maxIdle, Duration pingInterval, Duration sseHeartbeat,
                                Duration sseLifetime, int senderThreads,
                                Set<String> allowedOrigins, int replayLimit, int maxConnectionMemberPks, int maxConnections,
                                int maxConnectionsPerPrincipal, boolean cursorHeaderEverywhere,
                                boolean skipContainerIdleTimer) {

    /**
     * Whether a page of {@code origin} may connect: the application's own origin ({@code ownOrigin}, from the
     * request), one of {@link #allowedOrigins}, or any when {@code *} is configured.
     */
    public boolean allowsOrigin(String origin, Optional<String> ownOrigin) {
        if (allowedOrigins.contains("*")) {
            return true;
        }
        Optional<String> normalized = StreamsFeed.normalizeOrigin(origin);
        return normalized.isPresent()
                && (allowedOrigins.contains(normalized.get()) || normalized.equals(ownOrigin.flatMap(StreamsFeed::normalizeOrigin)));
    }
}
