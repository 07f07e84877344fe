package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** Where outbox rows are written and on which channel their commit is announced; each constant's doc says more. */
public record OutboxSettings(String dataSource, String notifyChannel) {

    public static final Setting<String> DATASOURCE = Setting.text("streams.datasource", null,
            "JNDI name of the application's JTA datasource; outbox rows are written through it. Required.");

    public static final Setting<String> NOTIFY_CHANNEL = Setting.channel("streams.notify-channel",
            "object_streams_events", "The PostgreSQL channel the post-commit wakeup is sent on.");

    public static OutboxSettings from(ConfigValues values) {
        return new OutboxSettings(values.require(DATASOURCE), values.get(NOTIFY_CHANNEL));
    }
}
