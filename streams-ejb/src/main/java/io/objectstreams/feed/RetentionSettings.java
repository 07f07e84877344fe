package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigRules;
import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Durations;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;
import java.util.Optional;

/**
 * How much of the outbox retention keeps; each constant's doc says what it does.
 *
 * @param maxAge    assigned rows older than this may be deleted; {@code null} when not set
 * @param maxRows   at most this many assigned rows are kept; 0 when not set
 * @param interval  how often the pruning task runs
 * @param batchSize rows deleted per transaction
 */
public record RetentionSettings(Duration maxAge, long maxRows, Duration interval, int batchSize) {

    /** Shortest {@code streams.retention.max-age}: younger rows may still be on their way to an instance's clients. */
    public static final Duration MIN_MAX_AGE = Duration.ofMinutes(1);

    public static final Setting<Duration> MAX_AGE = Setting.duration("streams.retention.max-age", null,
            "Assigned outbox rows older than this are deleted; unset (the default) keeps rows of any age.");

    public static final Setting<Long> MAX_ROWS = Setting.number("streams.retention.max-rows", null, 1, Long.MAX_VALUE,
            "At most this many assigned outbox rows are kept; unset (the default) keeps any number.");

    public static final Setting<Duration> INTERVAL = Setting.duration("streams.retention.interval",
            Duration.ofHours(1), "How often the pruning task runs (on one instance at a time).");

    public static final Setting<Integer> BATCH_SIZE = Setting.integer("streams.retention.batch-size", 10_000,
            1, 1_000_000, "Rows deleted per transaction; each batch is its own short transaction.");

    public static RetentionSettings from(ConfigValues values) {
        Duration age = values.find(MAX_AGE).orElse(null);
        if (age != null && age.compareTo(MIN_MAX_AGE) < 0) {
            throw ConfigRules.invalid(MAX_AGE.key(), "(" + Durations.brief(age) + ") must be at least "
                    + MIN_MAX_AGE.toMinutes() + " minute: younger rows may still be on their way to"
                    + " clients, and a client that reconnects within seconds must be able to replay");
        }
        Duration every = ConfigRules.atLeast(INTERVAL.key(), values.get(INTERVAL), Duration.ofSeconds(1));
        return new RetentionSettings(age, values.find(MAX_ROWS).orElse(0L), every, values.get(BATCH_SIZE));
    }

    /** Whether anything is ever deleted: with neither bound set, everything is kept. */
    public boolean enabled() {
        return maxAge != null || maxRows > 0;
    }

    public Optional<Duration> maxAgeIfSet() {
        return Optional.ofNullable(maxAge);
    }
}
