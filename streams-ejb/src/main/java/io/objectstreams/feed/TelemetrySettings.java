package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** Metrics and trace links through the server's OpenTelemetry (docs/operations.md); each constant's doc says more. */
public record TelemetrySettings(boolean enabled, int maxLinks) {

    public static final Setting<Boolean> ENABLED = Setting.bool("streams.telemetry.enabled", true,
            "Whether Object Streams records metrics and delivery spans through the server's OpenTelemetry (MicroProfile"
                    + " Telemetry); without it, or with this off,"
                    + " nothing is recorded and writes store no traceparent.");

    public static final Setting<Integer> MAX_LINKS = Setting.integer("streams.telemetry.max-links", 128, 0, 1_000,
            "How many writes' spans one delivery span links to at most; the rest are counted in an attribute.");

    public static TelemetrySettings from(ConfigValues values) {
        return new TelemetrySettings(values.get(ENABLED), values.get(MAX_LINKS));
    }
}
