package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigRules;
import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;

/** The listener's own connection, its channels and its pace; each constant's doc says what it does. */
public record ListenerSettings(String url, String user, String password, String notifyChannel, String cursorChannel,
                               Duration pollInterval, Duration retryDelay, Duration maxRetryDelay, int maxRetries,
                               int batchSize, Duration deadSessionTimeout, Duration coalesceWindow) {

    public static final Setting<String> URL = Setting.text("streams.listener.url", null,
            "JDBC URL of the listener's own, unpooled connection (LISTEN is session state a pool would leak)."
                    + " Required.");

    public static final Setting<String> USER = Setting.text("streams.listener.user", null,
            "User of the listener's connection, if not in the URL.");

    public static final Setting<String> PASSWORD = Setting.secret("streams.listener.password",
            "Password of the listener's connection, if not in the URL.");

    public static final Setting<String> CURSOR_CHANNEL = Setting.channel("streams.cursor-channel",
            "object_streams_cursors", "The channel on which the assigner announces new cursors to every instance.");

    public static final Setting<Duration> POLL_INTERVAL = Setting.duration("streams.listener.poll-interval",
            Duration.ofSeconds(1),
            "The poll floor: the listener drains at least this often even if no wakeup arrives (G6).");

    public static final Setting<Duration> RETRY_DELAY = Setting.duration("streams.listener.retry-delay",
            Duration.ofSeconds(1),
            "First delay before reconnecting after the listener's connection fails; doubles per failure.");

    public static final Setting<Duration> MAX_RETRY_DELAY = Setting.duration("streams.listener.max-retry-delay",
            Duration.ofSeconds(30), "The longest delay between reconnects; at least the retry delay.");

    public static final Setting<Integer> MAX_RETRIES = Setting.integer("streams.listener.max-retries", -1,
            -1, Integer.MAX_VALUE, "Failed reconnects in a row after which the listener gives up; -1 retries forever.");

    public static final Setting<Integer> BATCH_SIZE = Setting.integer("streams.listener.batch-size", 1000, 1, 100_000,
            "Rows given cursors, or read for delivery, per statement.");

    public static final Setting<Duration> DEAD_SESSION_TIMEOUT = Setting.duration(
            "streams.listener.dead-session-timeout", Duration.ofSeconds(30),
            "How long a listener session may stay unresponsive before it counts as dead (G7);"
                    + " at least 3 poll intervals.");

    /** The longest coalescing window: beyond it the wait would be felt as lag, not saved as work. */
    static final Duration MAX_COALESCE_WINDOW = Duration.ofMillis(100);

    public static final Setting<Duration> COALESCE_WINDOW = Setting.durationOrZero("streams.listener.coalesce-window",
            Duration.ofMillis(10), null,
            "Under load, the commits of one window share one wakeup NOTIFY and one assignment cycle; after a quiet"
                    + " window a commit is served at once, and under load an event waits up to two windows longer."
                    + " 0 serves every wakeup at once.");

    /** The listener's settings; its cursor channel must differ from {@code notifyChannel}. */
    public static ListenerSettings from(ConfigValues values, String notifyChannel) {
        String cursorChannel = values.get(CURSOR_CHANNEL);
        if (cursorChannel.equals(notifyChannel)) {
            throw ConfigRules.invalid(CURSOR_CHANNEL.key(), "must differ from " + OutboxSettings.NOTIFY_CHANNEL.key()
                    + " ('" + notifyChannel + "')");
        }
        Duration pollInterval = values.get(POLL_INTERVAL);
        Duration retryDelay = values.get(RETRY_DELAY);
        return new ListenerSettings(values.require(URL), values.get(USER), values.get(PASSWORD), notifyChannel,
                cursorChannel, pollInterval, retryDelay,
                ConfigRules.atLeast(MAX_RETRY_DELAY.key(), values.get(MAX_RETRY_DELAY), retryDelay),
                values.get(MAX_RETRIES), values.get(BATCH_SIZE), deadSessionTimeout(values, pollInterval),
                coalesceWindow(values));
    }

    private static Duration coalesceWindow(ConfigValues values) {
        Duration window = values.get(COALESCE_WINDOW);
        if (window.compareTo(MAX_COALESCE_WINDOW) > 0) {
            throw ConfigRules.invalid(COALESCE_WINDOW.key(), "must be at most " + MAX_COALESCE_WINDOW.toMillis()
                    + " ms, got " + window.toMillis() + " ms: every delivery under load could wait that long");
        }
        return window;
    }

    /** Shorter than three poll intervals, a live assigner could be fenced while it waits for its next poll. */
    private static Duration deadSessionTimeout(ConfigValues values, Duration pollInterval) {
        Duration floor = pollInterval.multipliedBy(3);
        Duration timeout = values.find(DEAD_SESSION_TIMEOUT)
                .orElse(DEAD_SESSION_TIMEOUT.defaultValue().compareTo(floor) >= 0
                        ? DEAD_SESSION_TIMEOUT.defaultValue() : floor);
        if (timeout.compareTo(floor) < 0) {
            throw ConfigRules.invalid(DEAD_SESSION_TIMEOUT.key(), "must be at least three poll intervals ("
                    + floor.toMillis() + " ms with " + POLL_INTERVAL.key() + " = " + pollInterval.toMillis()
                    + " ms), got "
                    + timeout.toMillis() + " ms: a live assigner may be idle for a whole poll interval");
        }
        return timeout;
    }

    @Override
    public String toString() {
        // Never print the password.
        return "ListenerSettings[url=" + url + ", user=" + user + ", notifyChannel=" + notifyChannel
                + ", cursorChannel=" + cursorChannel + ", pollInterval=" + pollInterval + ", retryDelay=" + retryDelay
                + ", maxRetryDelay=" + maxRetryDelay + ", maxRetries=" + maxRetries + ", batchSize=" + batchSize
                + ", deadSessionTimeout=" + deadSessionTimeout + ", coalesceWindow=" + coalesceWindow + "]";
    }
}
