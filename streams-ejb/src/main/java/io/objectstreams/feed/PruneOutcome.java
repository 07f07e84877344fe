package io.objectstreams.feed;

import java.time.Duration;

/**
 * What one pruning run did, or would do (a dry run).
 *
 * @param dryRun          nothing was deleted; {@code rows} is what a real run would delete now
 * @param lastCursor      the newest assigned cursor when the run started; never deleted
 * @param watermarkBefore the watermark when the run started
 * @param watermarkAfter  the watermark when the run ended (for a dry run: where a real run would leave it)
 * @param rows            rows deleted (or that would be)
 * @param batches         delete transactions committed (0 for a dry run)
 * @param took            how long the run took
 * @param stoppedEarly    why the run stopped before its target, or {@code null} when it reached it
 */
public record PruneOutcome(boolean dryRun, long lastCursor, long watermarkBefore, long watermarkAfter, long rows,
                           int batches, Duration took, String stoppedEarly) {
}
