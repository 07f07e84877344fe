package io.objectstreams.internal.health;

import java.time.Duration;
import java.time.Instant;

/**
 * What the listener of this application reports about itself, for health checks and operators.
 *
 * @param running             the listener and delivery threads are alive and the listener has not given up
 * @param listening           its database session is connected and LISTENing
 * @param role                {@code assigner}, {@code follower}, or {@code none} while disconnected
 * @param lastAssignedCursor  the highest cursor known to be assigned
 * @param lastDeliveredCursor the last cursor fired to this instance's transports
 * @param lastWakeup          when a notification last arrived, or {@code null}
 * @param lastError           the last session failure while it lasts, or {@code null}
 * @param backlogRows         committed rows still without a cursor, or -1 when unknown
 * @param oldestBacklogAge    how long the oldest of them has waited, or {@code null} when unknown
 * @param maxBacklogAge       the configured bound ({@code streams.health.max-backlog-age})
 * @param backlogError        why the backlog is unknown, or {@code null}
 * @param prunedThrough       the retention watermark: rows at or below it were deleted; -1 while unknown
 * @param lastPrune           when retention last ran, on any instance; {@code null} if never (or unknown)
 */
public record ListenerReport(boolean running, boolean listening, String role, long lastAssignedCursor,
                             long lastDeliveredCursor, Instant lastWakeup, String lastError, long backlogRows,
                             Duration oldestBacklogAge, Duration maxBacklogAge, String backlogError,
                             long prunedThrough, Instant lastPrune) {

    /** Ready: listening, and no committed row has waited longer than the bound for its cursor. */
    public boolean ready() {
        return running && listening && backlogError == null && oldestBacklogAge != null
                && oldestBacklogAge.compareTo(maxBacklogAge) <= 0;
    }
}
