package io.objectstreams.internal.listener;

import java.time.Instant;

/**
 * A snapshot of the listener for health checks and operators.
 *
 * @param running           the listener thread is alive and has not given up
 * @param listening         its session is connected and LISTENing
 * @param role              {@code assigner}, {@code follower}, or {@code none} while disconnected
 * @param lastAssignedCursor the high cursor this instance assigned or last saw announced
 * @param lastDeliveredCursor the last cursor this instance fired to its local transports
 * @param lastWakeup        when a notification last arrived, or {@code null}
 * @param lastError         the last connection failure, or {@code null} once reconnected
 */
public record ListenerStatus(boolean running, boolean listening, String role, long lastAssignedCursor,
                             long lastDeliveredCursor, Instant lastWakeup, String lastError) {
}
