package io.objectstreams.internal.config;

import java.time.Duration;
import java.util.Optional;

/**
 * How much of the outbox retention keeps; see {@link StreamsConfig} for each key and its default.
 *
 * @param maxAge    assigned rows older than this may be deleted; {@code null} when not set
 * @param maxRows   at most this many assigned rows are kept; 0 when not set
 * @param interval  how often the pruning task runs
 * @param batchSize rows deleted per transaction
 */
public record RetentionSettings(Duration maxAge, long maxRows, Duration interval, int batchSize) {

    /** Shortest {@code streams.retention.max-age}: younger rows may still be on their way to an instance's clients. */
    public static final Duration MIN_MAX_AGE = Duration.ofMinutes(1);

    /** Whether anything is ever deleted: with neither bound set, everything is kept. */
    public boolean enabled() {
        return maxAge != null || maxRows > 0;
    }

    public Optional<Duration> maxAgeIfSet() {
        return Optional.ofNullable(maxAge);
    }
}
