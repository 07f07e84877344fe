package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.capture.CaptureModes;
import io.objectstreams.internal.config.CaptureSettings;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.health.CaptureReport;
import io.objectstreams.internal.health.HealthRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 */
@ApplicationScoped
public class TriggerCapture {

    private static final Logger LOG = Logger.getLogger(TriggerCapture.class.getName());

    @Inject
    StreamsConfig config;

    @Inject
    CaptureModes modes;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService timers;

    private volatile List<TableMapping> captured = List.of();
    /** The tables of the entities the listener captures, by entity: none may carry a capture trigger. */
    private volatile Map<String, String> listenerTables = Map.of();
    private volatile CaptureReport report = new CaptureReport(0, List.of());
    private volatile String lastLogged = "";
    private final Supplier<CaptureReport> source = () -> report;
    private ScheduledFuture<?> clock;

    /**
     * Maps, checks and (when it owns the schema) installs the capture of {@code streamed}, the application's
     * {@code @Streamed} entities. A mapping triggers cannot follow, or an entity configured for both paths, fails
     * deployment naming it.
     */
    public synchronized void start(Collection<Class<?>> streamed) {
        List<TableMapping> byTrigger = new ArrayList<>();
        Map<String, String> byListener = new LinkedHashMap<>();
        for (Class<?> entity : streamed) {
            if (modes.byTrigger(entity)) {
                byTrigger.add(TableMappings.of(entity));
            } else {
                try {
                    byListener.put(entity.getName(), TableMappings.of(entity).qualifiedTable());
                } catch (StreamsException unmappable) {
                    LOG.log(Level.FINE, entity.getName() + ": no table to look at for stray capture triggers", unmappable);
                }
            }
        }
        captured = List.copyOf(byTrigger);
        listenerTables = Map.copyOf(byListener);
        check();
        if (!report.ok() && !captured.isEmpty() && config.migrateSchema()) {
            install();
            check();
        }
        HealthRegistry.application().register(HealthRegistry.CAPTURE, source);
        long every = CaptureSettings.from(config.values()).checkInterval().toMillis();
        if (every > 0 && clock == null) {
            clock = timers.scheduleWithFixedDelay(this::checkQuietly, every, every, TimeUnit.MILLISECONDS);
        }
        LOG.info(() -> "Object Streams trigger capture: " + captured.size() + " table(s)"
                + (report.ok() ? ", all captured" : ", not all captured: " + String.join("; ", report.problems())));
    }

    @PreDestroy
    void stop() {
        if (clock != null) {
            clock.cancel(false);
        }
        HealthRegistry.application().unregister(HealthRegistry.CAPTURE, source);
    }

    /** What is wrong now, as of the last check. */
    public CaptureReport report() {
        return report;
    }

    /** The SQL that installs every trigger-captured table's capture as this deployment maps it: for a DBA. */
    public String script() throws SQLException {
        StringBuilder script = new StringBuilder("-- Object Streams trigger capture (docs/capture.md). Run as the"
                + " owner of the tables; it replaces what an earlier mapping installed.\nBEGIN;\n");
        try (Connection connection = config.dataSource().getConnection()) {
            for (TableMapping mapping : captured) {
                for (String statement : sql(connection, mapping).install()) {
                    script.append(statement).append(";\n");
                }
            }
        }
        return script.append("COMMIT;\n").toString();
    }

    /** Checks every table now; never throws (a failed check is itself a problem). */
    public synchronized CaptureReport check() {
        List<String> problems = new ArrayList<>();
        try (Connection connection = config.dataSource().getConnection()) {
            for (TableMapping mapping : captured) {
                Map<String, String> types = TriggerCatalog.columnTypes(connection, mapping);
                problems.addAll(TriggerCatalog.problems(connection, mapping, types, new TriggerSql(mapping, types,
                        config.notifyChannel())));
            }
            for (Map.Entry<String, String> entity : listenerTables.entrySet()) {
                problems.addAll(TriggerCatalog.strays(connection, entity.getKey(), entity.getValue()));
            }
        } catch (SQLException | RuntimeException e) {
            problems.add("the capture triggers could not be checked: " + e.getMessage());
        }
        report = new CaptureReport(captured.size(), problems);
        String said = String.join("; ", problems);
        if (!said.equals(lastLogged)) {
            lastLogged = said;
            if (problems.isEmpty()) {
                LOG.info("Object Streams trigger capture: every table is captured again");
            } else {
                LOG.severe("Object Streams trigger capture: writes to some tables are not captured, so their"
                        + " subscribers are not told of them: " + said);
            }
        }
        return report;
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Checking the capture triggers failed", e); // never thrown: the clock would stop
        }
    }

    private void install() {
        try (Connection connection = config.dataSource().getConnection()) {
            List<TriggerSql> tables = new ArrayList<>();
            for (TableMapping mapping : captured) {
                Map<String, String> types = TriggerCatalog.columnTypes(connection, mapping);
                if (!types.isEmpty() && mapping.columns().stream().allMatch(types::containsKey)) {
                    tables.add(new TriggerSql(mapping, types, config.notifyChannel()));
                }
            }
            TriggerCatalog.install(connection, tables);
            LOG.info(() -> "Object Streams installed the capture triggers of " + tables.size() + " table(s)");
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.SEVERE, "Object Streams could not install its capture triggers; " + TriggerCatalog.installHint(), e);
        }
    }

    private TriggerSql sql(Connection connection, TableMapping mapping) throws SQLException {
        return new TriggerSql(mapping, TriggerCatalog.columnTypes(connection, mapping), config.notifyChannel());
    }
}
