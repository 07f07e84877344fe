package io.objectstreams.internal.config;

import java.time.Duration;

/**
 * Trigger capture's settings; each constant's doc says what it does. The capture mode of each entity is the setting
 * {@code streams.capture.<entity name>} ({@code io.objectstreams.internal.capture.CaptureModes}).
 *
 * @param checkInterval how often the capture triggers are checked against the mapping; zero: at deployment only
 */
public record CaptureSettings(Duration checkInterval) {

    public static final Setting<Duration> CHECK_INTERVAL = Setting.durationOrZero("streams.capture.check-interval",
            Duration.ofSeconds(30), Duration.ofSeconds(1),
            "How often the capture triggers are checked (missing, outdated, disabled); 0 checks at deployment only.");

    public static CaptureSettings from(ConfigValues values) {
        return new CaptureSettings(values.get(CHECK_INTERVAL));
    }
}
