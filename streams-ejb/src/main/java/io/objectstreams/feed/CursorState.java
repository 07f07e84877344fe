package io.objectstreams.feed;

import java.time.Instant;

/**
 * Where the outbox stands.
 *
 * @param lastCursor    the highest cursor assigned so far (0 before the first)
 * @param prunedThrough how far retention has deleted (the watermark): rows at or below it are gone
 * @param prunedAt      when retention last ran, or {@code null} if never
 */
public record CursorState(long lastCursor, long prunedThrough, Instant prunedAt) {
}
