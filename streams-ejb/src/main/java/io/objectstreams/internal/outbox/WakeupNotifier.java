package io.objectstreams.internal.outbox;

import io.objectstreams.internal.config.StreamsConfig;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends the payload-free wakeup {@code NOTIFY} after commits, outside every business transaction, and
 * coalesces bursts into one (G4).
 *
 * <p>Why not NOTIFY inside the transaction: PostgreSQL refuses it in a prepared (XA) transaction, and a
 * notifying commit takes a global lock that serialises all committers. A wakeup that is lost here costs
 * latency only: the listener also drains on its poll floor (G6).
 */
@ApplicationScoped
public class WakeupNotifier {

    private static final Logger LOG = Logger.getLogger(WakeupNotifier.class.getName());

    @Resource
    ManagedExecutorService executor;

    @Inject
    StreamsConfig config;

    /** Set while a NOTIFY is queued and not yet begun; commits arriving meanwhile ride on it. */
    private final AtomicBoolean queued = new AtomicBoolean();

    /** Asks for a wakeup; returns at once. */
    public void wakeup() {
        if (queued.compareAndSet(false, true)) {
            try {
                executor.execute(this::send);
            } catch (RejectedExecutionException e) {
                queued.set(false);
                LOG.log(Level.WARNING, "Wakeup NOTIFY not queued; the listener's poll floor will pick the rows up", e);
            }
        }
    }

    private void send() {
        // Cleared before sending: a commit after this point queues another NOTIFY, so none is missed.
        queued.set(false);
        try (Connection connection = config.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("NOTIFY " + config.notifyChannel());
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "Wakeup NOTIFY on " + config.notifyChannel()
                    + " failed; the listener's poll floor will pick the rows up", e);
        }
    }
}
