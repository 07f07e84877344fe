package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** What the JAX-RS integration reads. */
public record RestSettings(boolean cursorHeaderEverywhere) {

    public static final Setting<Boolean> CURSOR_HEADER = Setting.bool("streams.rest.cursor-header", false,
            "Whether every JAX-RS response carries the Streams-Cursor header, not only @StreamsCursor ones.");

    static RestSettings from(ConfigValues values) {
        return new RestSettings(values.get(CURSOR_HEADER));
    }
}
