package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Durations;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;
import java.util.Optional;

/**
 * What an SSE stream does when its request names no {@code heartbeat} or {@code lifetime}. The bounds of each
 * setting are also those of the request parameter.
 */
public record SseSettings(Duration heartbeat, Duration lifetime) {

    public static final Setting<Duration> HEARTBEAT = Setting.duration("streams.sse.heartbeat", Duration.ofSeconds(25),
            Duration.ofSeconds(1), Duration.ofMinutes(5),
            "How often a stream whose request names no heartbeat gets a ': ping' comment.");

    public static final Setting<Duration> LIFETIME = Setting.duration("streams.sse.lifetime", Duration.ofMinutes(30),
            Duration.ofSeconds(1), Duration.ofHours(4),
            "How long a stream whose request names no lifetime stays open; then the client resumes.");

    static SseSettings from(ConfigValues values) {
        return new SseSettings(values.get(HEARTBEAT), values.get(LIFETIME));
    }

    /**
     * A request parameter's duration, in configuration's grammar where a bare number also means seconds
     * ({@code heartbeat=90}); empty if it is none. The caller checks the bounds.
     */
    public static Optional<Duration> parameter(String text) {
        return Durations.parse(text, true);
    }
}
