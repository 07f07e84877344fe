package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;
import java.util.Set;

/** What the WebSocket transport alone reads; each constant's doc says what it does. */
public record WebSocketSettings(int maxSubscriptions, int maxFrameBytes, Duration maxIdle, Duration pingInterval,
                                Set<String> allowedOrigins, boolean skipContainerIdleTimer) {

    // WebSocket only: an SSE stream carries exactly one subscription, which no limit of at least 1 can refuse.
    public static final Setting<Integer> MAX_SUBSCRIPTIONS = Setting.integer("streams.websocket.max-subscriptions",
            100, 1, 100_000, "Active subscriptions per WebSocket connection.");

    public static final Setting<Integer> MAX_FRAME_BYTES = Setting.integer("streams.websocket.max-frame-bytes", 65_536,
            1_024, 1_048_576,
            "The largest client frame the protocol accepts; a larger one gets an error, the session stays open.");

    public static final Setting<Duration> MAX_IDLE = Setting.durationOrZero("streams.websocket.max-idle", Duration.ZERO,
            null, "How long a connection may go without a message either way before it is closed; 0: never.");

    public static final Setting<Duration> PING_INTERVAL = Setting.durationOrZero("streams.websocket.ping-interval",
            Duration.ofSeconds(30), Duration.ofMillis(100),
            "How often each connection is pinged; one silent for two intervals is closed. 0: never ping.");

    public static final Setting<Set<String>> ALLOWED_ORIGINS = Setting.origins("streams.websocket.allowed-origins",
            "Origins (scheme://host[:port]) whose pages may connect besides the application's own; * allows any.");

    public static final Setting<Boolean> SKIP_CONTAINER_IDLE_TIMER = Setting.bool(
            "streams.websocket.skip-container-idle-timer", true,
            "Whether sessions on Tyrus (Payara) skip the container's idle-timer task, which never acts here.");

    static WebSocketSettings from(ConfigValues values) {
        return new WebSocketSettings(values.get(MAX_SUBSCRIPTIONS), values.get(MAX_FRAME_BYTES), values.get(MAX_IDLE),
                values.get(PING_INTERVAL), values.get(ALLOWED_ORIGINS), values.get(SKIP_CONTAINER_IDLE_TIMER));
    }
}
