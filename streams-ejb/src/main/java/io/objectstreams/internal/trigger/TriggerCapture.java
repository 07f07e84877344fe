package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.capture.CaptureModes;
import io.objectstreams.internal.keys.JpaMembers;
import io.objectstreams.internal.capture.StreamedModels;
import io.objectstreams.feed.CaptureControl;
import io.objectstreams.feed.CaptureSettings;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.schema.StreamsBootstrap;
import io.objectstreams.internal.health.CaptureReport;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Trigger capture of this application (G3): at deployment, the mapping of every entity captured by trigger, the
 * check of its table against it, and the install of what is missing or outdated when Object Streams owns the schema
 * ({@code streams.schema.migrate}); then the same check every {@code streams.capture.check-interval}, since DDL can
 * drop or disable a trigger at any time. A table whose writes would not be captured makes readiness DOWN and is
 * logged with what to run; it is never silent.
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

    private volatile List<TableMapping> captured = List.of();
    /** The tables of the entities the listener captures: none may carry a capture trigger. */
    private volatile List<TableMapping> listenerTables = List.of();
    private volatile CaptureReport report = new CaptureReport(0, List.of(), List.of());
    /** The last check that ran. */
    private CaptureReport checked;
    /** When this instance first saw each trigger installed from another mapping, by table and trigger. */
    private final Map<String, Instant> outdatedSince = new HashMap<>();
    /** What kind of failure the last check that could not run met; null after one that ran. */
    private String lastFailure;
    private volatile String lastLogged = "";
    /** What the last check that ran found of keys in {@code character(n)} columns; refused at deployment. */
    private List<String> paddedKeys = List.of();
    private final Supplier<CaptureReport> source = () -> report;
    private ScheduledFuture<?> clock;
    /** The last check found a partition or inheritance child with no capture trigger yet. */
    private boolean bare;
    /** What the deployment could not check (a JPA provider that cannot be asked), a warning in every report. */
    private List<String> unchecked = List.of();

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
        this.unchecked = List.copyOf(unchecked);
        for (Class<?> entity : streamed) {
            JpaMembers.key(entity); // a key no capture path can spell alike fails deployment, naming it (G16)
        }
        models.register(streamed);
        List<TableMapping> byTrigger = new ArrayList<>();
        List<TableMapping> byListener = new ArrayList<>();
        for (Class<?> entity : streamed) {
            if (modes.byTrigger(entity)) {
                byTrigger.add(TableMappings.of(entity));
            } else {
                try {
                    byListener.add(TableMappings.of(entity));
                } catch (StreamsException unmappable) {
                    LOG.log(Level.FINE, entity.getName() + ": no table to look at for stray capture triggers",
                            unmappable);
                }
            }
        }
        captured = List.copyOf(byTrigger);
        modes.partsByTrigger(byTrigger.stream().filter(TableMapping::part).map(TableMapping::model)
                .collect(Collectors.toSet()));
        listenerTables = List.copyOf(byListener);
        // Told only after installing, when this deployment installs: a SEVERE "not captured" logged just before the
        // install that captures them would send an operator after nothing.
        inspect();
        if ((!report.ok() || !outdatedSince.isEmpty()) && !captured.isEmpty() && config.migrateSchema()) {
            CaptureInstalls.installAll(config, captured);
            inspect();
        }
        log(report);
        if (!paddedKeys.isEmpty()) {
            // As a key of an unsupported Java type does (G16): its events could reach no subscription reliably.
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, String.join("; ", paddedKeys));
        }
        HealthRegistry.application().register(HealthRegistry.CAPTURE, source);
        long every = CaptureSettings.from(config.values()).checkInterval().toMillis();
        if (every > 0 && clock == null) {
            clock = timers.scheduleWithFixedDelay(this::checkQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        LOG.info(() -> "Object Streams trigger capture: " + captured.size() + " table(s)"
                + (report.ok() ? ", all captured" : ", not all captured: " + String.join("; ", report.problems()))
                + (report.warnings().isEmpty() ? "" : "; " + String.join("; ", report.warnings())));
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
        return report;
    }

    /** The SQL that installs every trigger-captured table's capture as this deployment maps it: for a DBA. */
    @Override
    public String script() throws SQLException {
        StringBuilder script = new StringBuilder("-- Object Streams trigger capture (docs/capture.md). Run as the"
                + " owner of the tables; it replaces what an earlier mapping installed.\nBEGIN;\n");
        try (Connection connection = config.dataSource().getConnection()) {
            String outbox = TriggerCatalog.outbox(connection); // once per pass, not once per table
            for (TableMapping mapping : captured) {
                TriggerSql sql = sql(mapping, TriggerCatalog.columnTypes(connection, mapping), outbox);
                List<String> statements = new ArrayList<>(sql.install());
                for (String descendant : Descendants.of(connection, mapping.qualifiedTable())) {
                    statements.addAll(sql.installOn(descendant));
                }
                statements.forEach(statement -> script.append(statement).append(";\n"));
            }
        }
        return script.append("COMMIT;\n").toString();
    }

    /**
     * Checks every table now; never throws. A check that cannot run (the database unreachable, say) leaves the last
     * one's findings standing, with a warning; before any check has run, it is a problem.
     */
    public synchronized CaptureReport check() {
        inspect();
        log(report);
        return report;
    }

    /** {@link #check()} without logging what it found. */
    private void inspect() {
        Findings findings = new Findings();
        try (Connection connection = config.dataSource().getConnection()) {
            String outbox = TriggerCatalog.outbox(connection); // once per pass, not once per table
            for (TableMapping mapping : captured) {
                Map<String, String> types = TriggerCatalog.columnTypes(connection, mapping);
                TriggerSql sql = sql(mapping, types, outbox);
                TriggerCatalog.check(connection, mapping, types, sql, findings);
                TriggerCatalog.paddedKeys(mapping, types, findings);
                sayRunning(connection, mapping, sql);
            }
            for (TableMapping mapping : listenerTables) {
                TriggerCatalog.strays(connection, mapping.entity(), mapping.qualifiedTable(), findings);
                TriggerCatalog.paddedKeys(mapping, TriggerCatalog.columnTypes(connection, mapping), findings);
            }
            paddedKeys = findings.paddedKeys();
            checked = graced(findings);
            bare = !findings.bare().isEmpty();
            lastFailure = null;
            report = checked;
        } catch (SQLException | RuntimeException e) {
            // Health is public: the error's text (hosts, SQL) goes to the log only, once per kind of failure.
            String kind = Sql.failure(e);
            LOG.log(kind.equals(lastFailure) ? Level.FINE : Level.WARNING, "Checking the capture triggers failed", e);
            lastFailure = kind;
            String failed = "the capture triggers could not be checked (" + kind + "); the error is in the server log";
            report = checked == null ? new CaptureReport(captured.size(), List.of(failed), List.of())
                    : new CaptureReport(captured.size(), checked.problems(), append(checked.warnings(),
                            failed + ", and the last check's findings stand"));
        }
    }

    /**
     * The findings as a report: a trigger installed from another mapping is a warning for the grace period from when
     * this instance first saw it (a rolling deploy runs two versions side by side), then a problem.
     */
    private CaptureReport graced(Findings findings) {
        Duration grace = CaptureSettings.from(config.values()).outdatedGrace();
        Instant now = Instant.now();
        outdatedSince.keySet().retainAll(findings.outdated().keySet());
        List<String> problems = new ArrayList<>(findings.problems());
        List<String> warnings = new ArrayList<>(findings.warnings());
        warnings.addAll(unchecked);
        findings.outdated().forEach((trigger, text) -> {
            Instant since = outdatedSince.computeIfAbsent(trigger, t -> now);
            if (!grace.isZero() && !since.plus(grace).isAfter(now)) {
                problems.add(text + " [for over streams.capture.outdated-grace=" + grace + "]");
            } else {
                warnings.add(text);
            }
        });
        return new CaptureReport(captured.size(), problems, warnings);
    }

    private void log(CaptureReport now) {
        String said = String.join("; ", now.problems()) + "|" + String.join("; ", now.warnings());
        if (said.equals(lastLogged)) {
            return;
        }
        lastLogged = said;
        if (!now.ok()) {
            LOG.severe("Object Streams trigger capture: writes to some tables are not captured, so their subscribers"
                    + " are not told of them: " + String.join("; ", now.problems()));
        }
        if (!now.warnings().isEmpty()) {
            LOG.warning("Object Streams trigger capture: " + String.join("; ", now.warnings()));
        }
        if (now.ok() && now.warnings().isEmpty()) {
            LOG.info("Object Streams trigger capture: every table is captured as this deployment maps it");
        }
    }

    private static List<String> append(List<String> list, String item) {
        List<String> longer = new ArrayList<>(list);
        longer.add(item);
        return longer;
    }

    /**
     * Tells other instances that one running this mapping runs, until a little after the next check would say it
     * again: no older mapping replaces it meanwhile. Best effort: without the right to write the registry, a restarting
     * older instance may put its triggers back, which the check then reports.
     */
    private void sayRunning(Connection connection, TableMapping mapping, TriggerSql sql) {
        Duration every = CaptureSettings.from(config.values()).checkInterval();
        Duration window = every.isZero() ? Duration.ofMinutes(10) : every.multipliedBy(3).plusSeconds(5);
        try {
            TriggerCatalog.running(connection, mapping, sql, window);
        } catch (SQLException e) {
            LOG.log(Level.FINE, "Could not note that this mapping of " + mapping.qualifiedTable() + " runs", e);
        }
    }

    private void checkQuietly() {
        try {
            check();
            if (bare && config.migrateSchema()) {
                // A partition attached, or a child table created, since the last check: capture it too (G16).
                CaptureInstalls.installAll(config, captured);
                check();
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Checking the capture triggers failed", e); // never thrown: the clock would stop
        }
    }

    private TriggerSql sql(TableMapping mapping, Map<String, String> types, String outbox) {
        return new TriggerSql(mapping, types, config.notifyChannel(), outbox);
    }
}
