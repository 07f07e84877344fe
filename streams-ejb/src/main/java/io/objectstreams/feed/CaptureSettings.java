package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;

/**
 * Trigger capture's settings; each constant's doc says what it does. The capture mode of each entity is the setting
 * {@code streams.capture.<entity name>} ({@code io.objectstreams.internal.capture.CaptureModes}).
 *
 * @param checkInterval     how often the capture triggers are checked against the mapping; zero: at deployment only
 * @param installLockTimeout how long installing one table's triggers waits for its locks before giving up on it
 * @param outdatedGrace      how long a trigger installed from another mapping is a warning before it is a problem;
 *                           zero: always a warning
 */
public record CaptureSettings(Duration checkInterval, Duration installLockTimeout, Duration outdatedGrace) {

    public static final Setting<Duration> CHECK_INTERVAL = Setting.durationOrZero("streams.capture.check-interval",
            Duration.ofSeconds(30), Duration.ofSeconds(1),
            "How often the capture triggers are checked (missing, outdated, disabled); 0 checks at deployment only.");

    public static final Setting<Duration> INSTALL_LOCK_TIMEOUT = Setting.duration(
            "streams.capture.install-lock-timeout", Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofMinutes(10),
            "How long installing one table's capture triggers at deployment waits for the table's lock (and the other"
                    + " instances' installs) before leaving that table to a DBA.");

    public static final Setting<Duration> OUTDATED_GRACE = Setting.durationOrZero("streams.capture.outdated-grace",
            Duration.ofMinutes(10), Duration.ofSeconds(1),
            "How long a capture trigger installed from another mapping (another version of the application, as in a"
                    + " rolling deploy) is a warning before it makes readiness DOWN; 0 keeps it a warning.");

    public static CaptureSettings from(ConfigValues values) {
        return new CaptureSettings(values.get(CHECK_INTERVAL), values.get(INSTALL_LOCK_TIMEOUT),
                values.get(OUTDATED_GRACE));
    }
}
