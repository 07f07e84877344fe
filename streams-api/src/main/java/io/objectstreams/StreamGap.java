package io.objectstreams;

/**
 * The CDI event an instance fires, on its delivery thread and in place of a {@link StreamBatch}, when cursors it
 * still owed its clients no longer exist: retention deleted them while this instance's delivery lagged behind
 * (or somebody deleted outbox rows by hand). Nothing of those cursors can be delivered any more, so every
 * subscription of this instance must be told to resync ({@code cursor_pruned}) through {@link #throughCursor()}
 * before anything later reaches it (G10, G11). The next {@link StreamBatch} starts after {@code throughCursor}.
 * Observers must not throw, as for {@link StreamBatch}: CDI skips the observers after a throwing one.
 *
 * @param fromCursor    the first cursor that was missing
 * @param throughCursor the last cursor that was missing
 */
public record StreamGap(long fromCursor, long throughCursor) {

    public StreamGap {
        if (fromCursor < 1 || throughCursor < fromCursor) {
            throw new IllegalArgumentException("not a gap: " + fromCursor + ".." + throughCursor);
        }
    }
}
