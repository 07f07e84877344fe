package io.objectstreams.feed;

import io.objectstreams.internal.config.Origins;
import io.objectstreams.internal.config.ConfigValues;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The validated settings every transport reads, one record per feature; each feature's constants declare its keys
 * and defaults, and {@code docs/configuration.md} lists them. The accessors below are shortcuts into the features.
 */
public record TransportSettings(SubscriptionSettings subscriptions, ConnectionSettings connections,
                                OutboundSettings outbound, WebSocketSettings websocket, SseSettings sse,
                                RestSettings rest) {

    /** Reads and checks every transport setting, including the rules between keys of different features. */
    public static TransportSettings from(ConfigValues values) {
        SubscriptionSettings subscriptions = SubscriptionSettings.from(values);
        return new TransportSettings(subscriptions, ConnectionSettings.from(values, subscriptions),
                OutboundSettings.from(values), WebSocketSettings.from(values), SseSettings.from(values),
                RestSettings.from(values));
    }

    /**
     * Whether a page of {@code origin} may connect: the application's own origin ({@code ownOrigin}, from the
     * request), one of {@link WebSocketSettings#allowedOrigins}, or any when {@code *} is configured.
     */
    public boolean allowsOrigin(String origin, Optional<String> ownOrigin) {
        Set<String> allowed = websocket.allowedOrigins();
        if (allowed.contains("*")) {
            return true;
        }
        Optional<String> normalized = Origins.normalize(origin);
        return normalized.isPresent()
                && (allowed.contains(normalized.get()) || normalized.equals(ownOrigin.flatMap(Origins::normalize)));
    }

    public int maxSubscriptions() {
        return websocket.maxSubscriptions();
    }

    public int maxFrameBytes() {
        return websocket.maxFrameBytes();
    }

    /** {@link Duration#ZERO} for never. */
    public Duration maxIdle() {
        return websocket.maxIdle();
    }

    /** {@link Duration#ZERO} for never. */
    public Duration pingInterval() {
        return websocket.pingInterval();
    }

    public Set<String> allowedOrigins() {
        return websocket.allowedOrigins();
    }

    public boolean skipContainerIdleTimer() {
        return websocket.skipContainerIdleTimer();
    }

    public int maxMemberPks() {
        return subscriptions.maxMemberPks();
    }

    public int replayLimit() {
        return subscriptions.replayLimit();
    }

    public int maxScopes() {
        return subscriptions.maxScopes();
    }

    public int maxTotalMemberPks() {
        return subscriptions.maxTotalMemberPks();
    }

    public int maxConnections() {
        return connections.max();
    }

    public int maxConnectionsPerPrincipal() {
        return connections.maxPerPrincipal();
    }

    public int maxAnonymousConnections() {
        return connections.maxAnonymous();
    }

    public int maxConnectionMemberPks() {
        return connections.maxMemberPks();
    }

    public long maxConnectionBytes() {
        return outbound.maxConnectionBytes();
    }

    public long maxServerBytes() {
        return outbound.maxServerBytes();
    }

    public int senderThreads() {
        return outbound.senderThreads();
    }

    /** An SSE request's heartbeat when it names none. */
    public Duration sseHeartbeat() {
        return sse.heartbeat();
    }

    /** An SSE request's lifetime when it names none. */
    public Duration sseLifetime() {
        return sse.lifetime();
    }

    public boolean cursorHeaderEverywhere() {
        return rest.cursorHeaderEverywhere();
    }
}
