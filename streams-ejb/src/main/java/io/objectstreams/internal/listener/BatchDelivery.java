package io.objectstreams.internal.listener;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import io.objectstreams.StreamGap;
import io.objectstreams.feed.ListenerSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads newly assigned rows and hands them to this instance's transports as {@link StreamBatch}es, on a thread
 * of its own (G7). The listener thread only announces how far cursors are assigned, so fan-out (visibility
 * queries, the application's policies, queueing) can never hold up cursor assignment for the cluster: a slow
 * node slows only its own delivery.
 *
 * <p>Rows are read back from the database, never handed over in memory, so a node whose delivery lags behind
 * holds one number, not a growing queue. Reads go through a dedicated session of their own (not the
 * application's pool, which may be exhausted, and not the listener's, which must stay free to assign). A read
 * that fails is retried with the listener's backoff from the same cursor: a failure costs latency, never an
 * event (G10).
 */
final class BatchDelivery {

    private static final Logger LOG = Logger.getLogger(BatchDelivery.class.getName());

    static final String APPLICATION_NAME = "object-streams-delivery";

    private final ListenerSettings settings;
    private final Consumer<StreamBatch> fire;
    private final Consumer<StreamGap> gap;
    private final Object signal = new Object();
    private long assignedThrough = -1;
    private volatile long delivered = -1;
    private volatile boolean running;
    private volatile String lastError;
    private volatile Connection connection;
    private Thread thread;

    BatchDelivery(ListenerSettings settings, Consumer<StreamBatch> fire, Consumer<StreamGap> gap) {
        this.settings = settings;
        this.fire = fire;
        this.gap = gap;
    }

    void start(ThreadFactory threads) {
        running = true;
        thread = threads.newThread(this::run);
        thread.setName("object-streams-delivery");
        thread.start();
    }

    /** Stops after the batch in hand, within {@code timeout}; then closes the session. */
    void stop(Duration timeout) throws InterruptedException {
        running = false;
        synchronized (signal) {
            signal.notifyAll();
        }
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
            closeConnection();
            thread.join(5_000);
        }
    }

    /**
     * Sets where delivery starts, once: the cursor this instance's sessions are owed everything after. Later
     * calls (after a reconnect of the listener) change nothing, so no cursor is skipped or repeated.
     */
    void startFrom(long cursor) {
        synchronized (signal) {
            if (delivered < 0) {
                delivered = cursor;
                assignedThrough = Math.max(assignedThrough, cursor);
            }
        }
    }

    /** Cursors up to {@code cursor} are assigned and committed: deliver them. Never waits. */
    void announce(long cursor) {
        synchronized (signal) {
            if (cursor > assignedThrough) {
                assignedThrough = cursor;
                signal.notifyAll();
            }
        }
    }

    /** The last cursor handed to the transports; -1 before delivery has started. */
    long delivered() {
        return delivered;
    }

    boolean alive() {
        return thread != null && thread.isAlive();
    }

    /** The last failure to read rows, while it lasts; {@code null} once a read succeeds again. */
    String lastError() {
        return lastError;
    }

    private void run() {
        int failures = 0;
        while (running) {
            if (!awaitWork()) {
                continue;
            }
            try {
                deliverAvailable();
                failures = 0;
                lastError = null;
            } catch (SQLException | RuntimeException e) {
                closeConnection();
                lastError = e.getMessage();
                failures++;
                Duration delay = Backoff.delay(settings, failures);
                LOG.log(Level.WARNING, "Object Streams delivery could not read assigned rows after cursor " + delivered
                        + "; retry " + failures + " in " + delay.toMillis() + " ms: " + e.getMessage());
                Backoff.pause(delay, () -> running);
            }
        }
        closeConnection();
    }

    /** Waits up to the poll interval for cursors beyond what was delivered; true when there are some. */
    private boolean awaitWork() {
        synchronized (signal) {
            if (running && (delivered < 0 || assignedThrough <= delivered)) {
                try {
                    signal.wait(settings.pollInterval().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    running = false;
                }
            }
            return running && delivered >= 0 && assignedThrough > delivered;
        }
    }

    private void deliverAvailable() throws SQLException {
        List<StreamEvent> events;
        do {
            events = OutboxReader.readAfter(connection(), delivered, settings.batchSize());
            if (events.isEmpty()) {
                return;
            }
            long first = events.get(0).cursor();
            if (first > delivered + 1) {
                // Cursors are handed out without holes, so the rows in between were deleted before this instance
                // delivered them (retention, while delivery lagged): its clients must be told, never skipped (G10).
                StreamGap missing = new StreamGap(delivered + 1, first - 1);
                LOG.warning(() -> "Object Streams delivery found cursors " + missing.fromCursor() + ".."
                        + missing.throughCursor() + " deleted before this instance delivered them (retention ran"
                        + " while delivery lagged behind); every subscription here is told to resync (cursor_pruned)");
                try {
                    gap.accept(missing);
                } catch (RuntimeException e) {
                    // The transports' observer never throws (a connection it cannot tell is closed, so its client
                    // reconnects with its cursor); a failure here is another observer's, as for StreamBatch below.
                    LOG.log(Level.SEVERE, "An observer of StreamGap failed for cursors " + missing.fromCursor() + ".."
                            + missing.throughCursor(), e);
                }
                delivered = missing.throughCursor();
            }
            StreamBatch batch = new StreamBatch(events);
            try {
                fire.accept(batch);
            } catch (RuntimeException e) {
                // The transports' observer tells its own subscribers when its fan-out fails (G10); a failure that
                // reaches here is another observer's, which has only itself to answer for.
                LOG.log(Level.SEVERE, "An observer of StreamBatch failed for cursors " + batch.firstCursor() + ".."
                        + batch.lastCursor(), e);
            }
            delivered = batch.lastCursor();
        } while (events.size() == settings.batchSize() && running);
    }

    private Connection connection() throws SQLException {
        Connection current = connection;
        if (current == null || current.isClosed()) {
            current = ListenerConnection.dataSource(settings, APPLICATION_NAME).getConnection();
            try (Statement mark = current.createStatement()) {
                mark.execute(TickNumbering.MARK_SESSION);
            } catch (SQLException e) {
                current.close();
                throw e;
            }
            connection = current;
        }
        return current;
    }

    private void closeConnection() {
        Connection current = connection;
        connection = null;
        if (current != null) {
            try {
                current.close();
            } catch (SQLException ignored) {
                // closing is all we wanted
            }
        }
    }
}
