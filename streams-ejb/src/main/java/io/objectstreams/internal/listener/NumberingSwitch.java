package io.objectstreams.internal.listener;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Decides when the assigner may stop numbering rows one by one and switch to ticks (schema V7), and watches for
 * instances of an earlier version afterwards. Such an instance reads {@code streams_outbox.cursor}, which ticks do not
 * write: switching while one is connected, or merely reconnecting after a database restart, would leave its clients
 * without events. So the switch waits until none has been seen for {@code hold}, longer than an earlier listener's
 * longest backoff plus the time a dead session takes to go.
 */
final class NumberingSwitch {

    private static final Logger LOG = Logger.getLogger(NumberingSwitch.class.getName());
    private static final long REPEAT_NANOS = Duration.ofMinutes(10).toNanos();
    private static final long WATCH_NANOS = Duration.ofSeconds(30).toNanos();

    private final long holdNanos;
    private long quietSince = -1;
    private long heldLoggedAt;
    private long watchedAt;
    private long seenAfterSwitch;

    NumberingSwitch(Duration hold) {
        this.holdNanos = hold.toNanos();
    }

    /** Whether numbering may switch now: no session of an earlier version for the whole hold. */
    boolean maySwitch(Connection connection) throws SQLException {
        long sessions = TickNumbering.earlierVersionSessions(connection);
        long now = System.nanoTime();
        if (sessions > 0) {
            quietSince = -1;
            if (heldLoggedAt == 0 || now - heldLoggedAt > REPEAT_NANOS) {
                heldLoggedAt = now;
                LOG.info(() -> "Object Streams numbers rows one by one while " + sessions + " sessions of an earlier"
                        + " version are connected (application name object-streams-listener or -delivery without this"
                        + " version's mark); it numbers by tick once they are gone (docs/schema.md, version 7)");
            }
            return false;
        }
        if (quietSince < 0) {
            quietSince = now;
        }
        return now - quietSince >= holdNanos;
    }

    /**
     * After the switch, at most every 30 s: an earlier version's session now gets no events, and its clients are not
     * told. Logged SEVERE when one appears.
     */
    void watch(Connection connection) throws SQLException {
        long now = System.nanoTime();
        if (watchedAt != 0 && now - watchedAt < WATCH_NANOS) {
            return;
        }
        watchedAt = now;
        long sessions = TickNumbering.earlierVersionSessions(connection);
        if (sessions > 0 && seenAfterSwitch == 0) {
            LOG.severe(() -> sessions + " sessions of an earlier Object Streams version are connected to a database"
                    + " that numbers rows by tick (schema V7): their clients receive no events. Stop or upgrade them"
                    + " (docs/schema.md, version 7)");
        }
        seenAfterSwitch = sessions;
    }
}
