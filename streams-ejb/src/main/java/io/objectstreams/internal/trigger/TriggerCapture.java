package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.feed.CaptureControl;
import io.objectstreams.feed.CaptureSettings;
import io.objectstreams.internal.capture.CaptureModes;
import io.objectstreams.internal.capture.StreamedModels;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.health.CaptureReport;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.internal.keys.JpaMembers;
import io.objectstreams.internal.schema.StreamsBootstrap;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Trigger capture of this application (G3): at deployment, the mapping of every entity captured by trigger, the
 * check of its table against it, and the install of what is missing or outdated when Object Streams owns the schema
 * ({@code streams.schema.migrate}); then the same check every {@code streams.capture.check-interval}, since DDL can
 * drop or disable a trigger at any time. A table whose writes would not be captured makes readiness DOWN and is
 * logged with what to run; it is never silent.
 *
 * <p>This bean owns the order of those steps, the clock and the readiness registration; the mapping is
 * {@link CapturedTables}', the check and its report {@link CaptureChecker}'s, installing {@link CaptureInstalls}', and
 * what the log says {@link CaptureLog}'s.
 */
@ApplicationScoped
public class TriggerCapture implements CaptureControl {

    private static final Logger LOG = Logger.getLogger(TriggerCapture.class.getName());

    @Inject
    StreamsConfig config;

    @Inject
    CaptureModes modes;

    @Inject
    StreamedModels models;

    @Inject
    StreamsBootstrap bootstrap;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService timers;

    /** The tables captured by trigger, and those of the entities the listener captures (none may carry a trigger). */
    private volatile CapturedTables tables = CapturedTables.NONE;
    private final CaptureChecker checker = new CaptureChecker();
    private final CaptureLog captureLog = new CaptureLog();
    private final Supplier<CaptureReport> source = () -> checker.report();
    private ScheduledFuture<?> clock;

    /**
     * Maps, checks and (when it owns the schema) installs the capture of {@code streamed}, the application's
     * {@code @Streamed} entities. A mapping triggers cannot follow, or an entity configured for both paths, fails
     * deployment naming it.
     */
    public synchronized void start(Collection<Class<?>> streamed) {
        start(streamed, List.of());
    }

    /**
     * As {@link #start(Collection)}, with what the deployment could not check about capture, reported as warnings
     * in readiness with the tables' findings.
     */
    @Override
    public synchronized void start(Collection<Class<?>> streamed, List<String> unchecked) {
        // Installing needs the schema (V6's mapping registry): on a fresh database, deployment migrates it first.
        bootstrap.awaitSchema();
        checker.unchecked(unchecked);
        for (Class<?> entity : streamed) {
            JpaMembers.key(entity); // a key no capture path can spell alike fails deployment, naming it (G16)
        }
        models.register(streamed);
        CapturedTables mapped = CapturedTables.of(streamed, modes);
        tables = mapped;
        modes.partsByTrigger(mapped.partModels());
        // Told only after installing, when this deployment installs: a SEVERE "not captured" logged just before the
        // install that captures them would send an operator after nothing.
        checker.inspect(config, mapped);
        if (checker.needsInstall() && !mapped.byTrigger().isEmpty() && config.migrateSchema()) {
            CaptureInstalls.installAll(config, mapped.byTrigger());
            checker.inspect(config, mapped);
        }
        captureLog.log(checker.report());
        if (!checker.paddedKeys().isEmpty()) {
            // As a key of an unsupported Java type does (G16): its events could reach no subscription reliably.
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, String.join("; ", checker.paddedKeys()));
        }
        HealthRegistry.application().register(HealthRegistry.CAPTURE, source);
        long every = CaptureSettings.from(config.values()).checkInterval().toMillis();
        if (every > 0 && clock == null) {
            clock = timers.scheduleWithFixedDelay(this::checkQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        captureLog.started(mapped.byTrigger().size(), checker.report());
    }

    @PreDestroy
    void stop() {
        if (clock != null) {
            clock.cancel(false);
        }
        HealthRegistry.application().unregister(HealthRegistry.CAPTURE, source);
    }

    /** What is wrong now, as of the last check. */
    @Override
    public CaptureReport report() {
        return checker.report();
    }

    /** The SQL that installs every trigger-captured table's capture as this deployment maps it: for a DBA. */
    @Override
    public String script() throws SQLException {
        return CaptureInstalls.script(config, tables.byTrigger());
    }

    /**
     * Checks every table now; never throws. A check that cannot run (the database unreachable, say) leaves the last
     * one's findings standing, with a warning; before any check has run, it is a problem.
     */
    public synchronized CaptureReport check() {
        checker.inspect(config, tables);
        captureLog.log(checker.report());
        return checker.report();
    }

    private void checkQuietly() {
        try {
            check();
            if (checker.foundBare() && config.migrateSchema()) {
                // A partition attached, or a child table created, since the last check: capture it too (G16).
                CaptureInstalls.installAll(config, tables.byTrigger());
                check();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Checking the capture triggers failed", e); // never thrown: the clock would stop
        }
    }
}
