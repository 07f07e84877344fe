package io.objectstreams.internal.listener;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamGap;
import io.objectstreams.feed.ListenerSettings;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.delivery.DeliveryTargets;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.internal.health.ListenerReport;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Owns the LISTEN session and the loop that assigns cursors (when this instance holds the assigner role), and
 * the {@link BatchDelivery} that hands newly assigned rows to local transports as {@link StreamBatch} CDI events.
 * The loop only announces new cursors to delivery and never waits for it (G7).
 *
 * <p>NOTIFY is only a wakeup (G6): the loop also drains on start, after every reconnect and at least once
 * per poll interval, so a lost notification costs latency, never an event. The loop runs on a container
 * managed thread, not the managed executor, because it never ends while the application is deployed.
 */
@Singleton
@LocalBean
@Startup
@DependsOn("StreamsBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
public class OutboxListener {

    private static final Logger LOG = Logger.getLogger(OutboxListener.class.getName());

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @Inject
    StreamsConfig config;

    @Inject
    Event<StreamBatch> batches;

    @Inject
    Event<StreamGap> gaps;

    private ListenerSettings settings;
    private CursorAssigner assigner;
    private Thread thread;
    private volatile boolean running;
    private volatile ListenerConnection session;

    // Read by health checks from other threads; written only by the loop.
    private volatile boolean listening;
    private volatile boolean assignerRole;
    private volatile boolean gaveUp;
    private volatile long lastAssigned;
    private BatchDelivery delivery;
    private volatile Instant lastWakeup;
    private volatile String lastError;
    private boolean served;
    private volatile Backlog lastBacklog;
    private volatile OutboxReader.CursorState lastState;
    /** What the health registry holds for this listener: the same instance is unregistered at stop. */
    private Supplier<ListenerReport> reportSource;

    @PostConstruct
    void start() {
        settings = config.listener();
        // An earlier version's listener may be in its longest backoff, or its dead session not yet gone: neither
        // counts as gone until both have passed.
        assigner = new CursorAssigner(settings.batchSize(), settings.cursorChannel(),
                settings.maxRetryDelay().plus(settings.deadSessionTimeout()));
        // The transports first, outside CDI, so no application observer that throws can keep a batch from them.
        delivery = new BatchDelivery(settings, batch -> {
            DeliveryTargets.application().batch(batch);
            batches.fire(batch);
        }, gap -> {
            DeliveryTargets.application().gap(gap);
            gaps.fire(gap);
        });
        startDeliveryAtBoot();
        delivery.start(threads);
        running = true;
        thread = threads.newThread(this::run);
        thread.setName("object-streams-listener");
        thread.start();
        reportSource = this::report;
        HealthRegistry.application().register(HealthRegistry.LISTENER, reportSource);
        LOG.info(() -> "Object Streams listener started: " + settings);
    }

    /** Stops the loop within the poll interval plus a few seconds, and releases the session (and the role). */
    @PreDestroy
    void stop() {
        HealthRegistry.application().unregister(HealthRegistry.LISTENER, reportSource);
        running = false;
        try {
            thread.join(settings.pollInterval().plusSeconds(5).toMillis());
            if (thread.isAlive()) {
                ListenerConnection stuck = session;
                if (stuck != null) {
                    stuck.abort();
                }
                thread.join(5_000);
            }
            delivery.stop(settings.pollInterval().plusSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info(() -> "Object Streams listener stopped" + (thread.isAlive() ? " (thread still alive)" : ""));
    }

    /**
     * The listener's state and the outbox backlog, for the health checks (G13). The backlog is measured by
     * the loop on its own session at least once per poll interval, so health never depends on the application's
     * pool; between measurements the oldest row is assumed to keep waiting, so a loop that stops measuring turns
     * readiness DOWN within {@code streams.health.max-backlog-age}.
     */
    public ListenerReport report() {
        Backlog backlog = lastBacklog;
        Duration oldest = null;
        String backlogError = null;
        if (backlog == null) {
            backlogError = "not measured yet";
        } else {
            oldest = backlog.oldest().plus(Duration.between(backlog.measuredAt(), Instant.now()));
        }
        String error = lastError != null ? lastError : delivery.lastError();
        OutboxReader.CursorState state = lastState;
        return new ListenerReport(thread != null && thread.isAlive() && !gaveUp && delivery.alive(), listening,
                listening ? (assignerRole ? "assigner" : "follower") : "none",
                lastAssigned, Math.max(delivery.delivered(), 0), lastWakeup, error,
                backlog == null ? -1 : backlog.rows(), oldest, config.maxBacklogAge(), backlogError,
                state == null ? -1 : state.prunedThrough(), state == null ? null : state.prunedAt());
    }

    /**
     * The last cursor handed to this instance's transports; -1 while this instance does not know where its
     * delivery starts (the database could not be read yet), when no subscription may start: it would be
     * registered at a cursor delivery might then skip.
     */
    public long deliveredCursor() {
        if (delivery.delivered() < 0) {
            startDeliveryAtBoot();
        }
        return delivery.delivered();
    }

    /**
     * Fixes where delivery starts from the cursor state read through the application's datasource, without
     * waiting for the listener's own session: subscriptions made while the listener cannot reach the database
     * are owed everything after this cursor, which delivery catches up on once the listener connects. When the
     * datasource cannot be read either, the listener's first connect fixes it instead (G10).
     */
    private void startDeliveryAtBoot() {
        try (Connection connection = config.dataSource().getConnection()) {
            delivery.startFrom(CursorAssigner.lastCursor(connection));
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "The cursor state could not be read through the application's datasource yet", e);
        }
    }

    private record Backlog(long rows, Duration oldest, Instant measuredAt) {
    }

    private void run() {
        int failures = 0;
        while (running) {
            try (ListenerConnection connection = ListenerConnection.open(settings)) {
                session = connection;
                listening = true;
                lastError = null;
                if (failures > 0) {
                    LOG.info("Object Streams listener reconnected; draining");
                }
                served = false;
                serve(connection);
            } catch (SQLException | RuntimeException e) {
                listening = false;
                assignerRole = false;
                lastError = e.getMessage();
                if (!running) {
                    break;
                }
                // A session that worked for a while resets the backoff; one that fails at once does not.
                failures = served ? 1 : failures + 1;
                if (settings.maxRetries() >= 0 && failures > settings.maxRetries()) {
                    gaveUp = true;
                    LOG.log(Level.SEVERE, "Object Streams listener gives up after " + settings.maxRetries()
                            + " failed reconnects (streams.listener.max-retries)", e);
                    return;
                }
                Duration delay = Backoff.delay(settings, failures);
                LOG.log(Level.WARNING, "Object Streams listener lost its database session; retry " + failures
                        + " in " + delay.toMillis() + " ms: " + e.getMessage());
                Backoff.pause(delay, () -> running);
            } finally {
                session = null;
                listening = false;
                assignerRole = false;
            }
        }
    }

    private void serve(ListenerConnection connection) throws SQLException {
        // A fresh instance has no sessions owed anything older than now; after a reconnect this changes nothing.
        delivery.startFrom(CursorAssigner.lastCursor(connection.jdbc()));
        int pollMillis = (int) Math.min(Integer.MAX_VALUE, settings.pollInterval().toMillis());
        long window = settings.coalesceWindow().toNanos();
        long pollNanos = settings.pollInterval().toNanos();
        long measuredAt = System.nanoTime() - pollNanos;
        while (running) {
            long cycleStart = System.nanoTime();
            if (!assignerRole && connection.tryAssignerRole()) {
                assignerRole = true;
                // Rows a previous holder left without a cursor, or a restore, are found by one full look (V7).
                assigner.reconcileNext();
                // The assigner learns its cursors from its own transactions; its announcements would only wake it.
                connection.stopHearingCursors();
                LOG.info(() -> "Object Streams listener holds the assigner role for " + connection.outboxTable());
            } else if (!assignerRole) {
                // A holder that stopped talking (partition, frozen host) keeps the lock until the database notices;
                // fencing it bounds the takeover by streams.listener.dead-session-timeout (G7).
                connection.fenceStaleAssigner(settings.deadSessionTimeout());
            }
            long high = -1;
            if (assignerRole) {
                assigner.assignAll(connection.jdbc());
                high = assigner.highCursor();
            }
            if (high < 0 || System.nanoTime() - measuredAt >= pollNanos) {
                // Followers learn new cursors here: the assigner's NOTIFY woke them, the poll floor backs it up. The
                // assigner knows its own; it measures the backlog and retention's progress once per poll interval.
                OutboxReader.Progress progress = OutboxReader.progress(connection.jdbc());
                measuredAt = System.nanoTime();
                lastBacklog = new Backlog(progress.backlogRows(), progress.oldestBacklog(), Instant.now());
                lastState = progress.state();
                high = Math.max(high, progress.state().lastCursor());
            }
            lastAssigned = high;
            delivery.announce(lastAssigned);
            served = true;
            ListenerConnection.Wakeup wakeup = connection.awaitNotifications(pollMillis);
            if (wakeup != ListenerConnection.Wakeup.NONE) {
                lastWakeup = Instant.now();
                // Under load one cycle serves the window's commits: a wakeup by commits less than a window after
                // the last cycle began waits out the rest of it. After a quiet window nothing waits, and new
                // cursors (a follower hears them just after the commit's own wakeup) never do.
                long early = window - (System.nanoTime() - cycleStart);
                if (wakeup == ListenerConnection.Wakeup.WRITES && early > 0 && running) {
                    LockSupport.parkNanos(early);
                    connection.drainNotifications();
                }
            }
        }
    }
}
