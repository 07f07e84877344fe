package io.objectstreams.internal.retention;

import io.objectstreams.feed.PruneOutcome;
import io.objectstreams.feed.RetentionSettings;
import io.objectstreams.internal.config.StreamsConfig;
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
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs retention (G11): every {@code streams.retention.interval}, on the container's managed scheduled executor,
 * deletes what {@code streams.retention.max-age} and {@code streams.retention.max-rows} let go, through the
 * application's datasource. Every instance schedules it; the pruning lock lets one delete at a time, and the
 * others find nothing left. Operators run it by hand through the admin endpoint, with other bounds or dry.
 */
@Singleton
@LocalBean
@Startup
@DependsOn("StreamsBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
public class OutboxRetention {

    private static final Logger LOG = Logger.getLogger(OutboxRetention.class.getName());

    /** The first scheduled run comes after the interval, or after this if sooner: restarts must not starve pruning. */
    private static final Duration FIRST_RUN_AT_MOST = Duration.ofMinutes(1);

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService scheduler;

    @Inject
    StreamsConfig config;

    /** One run at a time on this instance (the database lock covers the others). */
    private final ReentrantLock running = new ReentrantLock();
    private RetentionSettings settings;
    private ScheduledFuture<?> task;
    private volatile boolean stopping;
    private volatile PruneOutcome lastOutcome;
    private volatile Instant lastRun;
    private volatile String lastError;

    /** Thrown when a run is asked for while one is under way on this instance. */
    public static final class Busy extends Exception {
        private static final long serialVersionUID = 1L;

        Busy() {
            super("A prune is already running on this instance; try again when it has finished");
        }
    }

    @PostConstruct
    void start() {
        settings = config.retention();
        if (!settings.enabled()) {
            LOG.info("Object Streams retention is off: every outbox row is kept (set streams.retention.max-age"
                    + " or streams.retention.max-rows to prune)");
            return;
        }
        long every = settings.interval().toMillis();
        long first = Math.min(every, FIRST_RUN_AT_MOST.toMillis());
        task = scheduler.scheduleWithFixedDelay(this::scheduledRun, first, every, TimeUnit.MILLISECONDS);
        LOG.info(() -> "Object Streams retention: keeps " + describe(settings.maxAge(), settings.maxRows())
                + ", prunes every " + settings.interval() + " in batches of " + settings.batchSize());
    }

    @PreDestroy
    void stop() {
        stopping = true;
        if (task != null) {
            task.cancel(false);
        }
    }

    public RetentionSettings settings() {
        return settings;
    }

    /** The last run's outcome on this instance, or {@code null}. */
    public PruneOutcome lastOutcome() {
        return lastOutcome;
    }

    public Instant lastRun() {
        return lastRun;
    }

    /** Why the last scheduled run failed, while no later one succeeded; or {@code null}. */
    public String lastError() {
        return lastError;
    }

    /**
     * One run with the given bounds ({@code null} / 0: no such bound). A dry run deletes nothing and reports what
     * a real run would delete now.
     */
    public PruneOutcome prune(Duration maxAge, long maxRows, boolean dryRun) throws SQLException, Busy {
        if (dryRun) {
            try (Connection connection = config.dataSource().getConnection()) {
                return OutboxPruner.run(connection, maxAge, maxRows, settings.batchSize(), true, () -> !stopping);
            }
        }
        if (!running.tryLock()) {
            throw new Busy();
        }
        try (Connection connection = config.dataSource().getConnection()) {
            PruneOutcome outcome = OutboxPruner.run(connection, maxAge, maxRows, settings.batchSize(), false,
                    () -> !stopping);
            lastOutcome = outcome;
            lastRun = Instant.now();
            if (outcome.rows() > 0 || outcome.stoppedEarly() != null) {
                LOG.info(() -> "Object Streams retention deleted " + outcome.rows() + " outbox rows in "
                        + outcome.batches() + " batches (" + outcome.took().toMillis() + " ms); watermark "
                        + outcome.watermarkBefore() + " -> " + outcome.watermarkAfter()
                        + (outcome.stoppedEarly() == null ? "" : "; stopped early: " + outcome.stoppedEarly()));
            }
            return outcome;
        } finally {
            running.unlock();
        }
    }

    /** Never throws: the executor would not run a task again after it threw. */
    private void scheduledRun() {
        try {
            prune(settings.maxAge(), settings.maxRows(), false);
            lastError = null;
        } catch (Busy busy) {
            LOG.fine("Scheduled prune skipped: an operator's prune is running");
        } catch (SQLException | RuntimeException e) {
            lastError = e.getMessage();
            LOG.log(Level.WARNING, "Object Streams retention could not prune the outbox; it tries again in "
                    + settings.interval() + ": " + e.getMessage(), e);
        }
    }

    static String describe(Duration maxAge, long maxRows) {
        String age = maxAge == null ? null : "rows younger than " + maxAge;
        String rows = maxRows > 0 ? "the newest " + maxRows + " rows" : null;
        if (age != null && rows != null) {
            return age + ", and at most " + rows + " (the stricter wins)";
        }
        return age != null ? age : rows != null ? rows : "every row";
    }
}
