package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;

/** What the health checks hold the listener to (G13). */
public record HealthSettings(Duration maxBacklogAge) {

    public static final Setting<Duration> MAX_BACKLOG_AGE = Setting.duration("streams.health.max-backlog-age",
            Duration.ofSeconds(30),
            "Readiness is DOWN when a committed row has waited longer than this for its cursor.");

    public static HealthSettings from(ConfigValues values) {
        return new HealthSettings(values.get(MAX_BACKLOG_AGE));
    }
}
