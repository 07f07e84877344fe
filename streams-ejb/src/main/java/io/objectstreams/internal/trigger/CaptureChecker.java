package io.objectstreams.internal.trigger;

import io.objectstreams.feed.CaptureSettings;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.health.CaptureReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks the captured tables against their mappings and keeps what the last check found: the report readiness
 * shows, and what deployment and the next install pass act on. Its owner changes it under one lock; the report is
 * volatile, as readiness reads it at any time.
 */
final class CaptureChecker {

    /** Trigger capture's one logger, whichever class logs for it: a logging configuration names it. */
    private static final Logger LOG = Logger.getLogger(TriggerCapture.class.getName());

    private volatile CaptureReport report = new CaptureReport(0, List.of(), List.of());
    /** The last check that ran. */
    private CaptureReport checked;
    /** When this instance first saw each trigger installed from another mapping, by table and trigger. */
    private final Map<String, Instant> outdatedSince = new HashMap<>();
    /** What kind of failure the last check that could not run met; null after one that ran. */
    private String lastFailure;
    /** What the last check that ran found of keys in {@code character(n)} columns; refused at deployment. */
    private List<String> paddedKeys = List.of();
    /** The last check found a partition or inheritance child with no capture trigger yet. */
    private boolean bare;
    /** What the deployment could not check (a JPA provider that cannot be asked), a warning in every report. */
    private List<String> unchecked = List.of();

    /** What is wrong now, as of the last check. */
    CaptureReport report() {
        return report;
    }

    /** Sets what the deployment could not check, to be a warning in every report from the next check on. */
    void unchecked(List<String> unchecked) {
        this.unchecked = List.copyOf(unchecked);
    }

    /**
     * Whether an install pass may help: the last check found something not captured (or could not run), or a
     * trigger installed from another mapping.
     */
    boolean needsInstall() {
        return !report.ok() || !outdatedSince.isEmpty();
    }

    /** What the last check that ran found of keys in {@code character(n)} columns. */
    List<String> paddedKeys() {
        return paddedKeys;
    }

    /** Whether the last check found a partition or inheritance child with no capture trigger yet. */
    boolean foundBare() {
        return bare;
    }

    /**
     * Checks every table of {@code tables} now; never throws. A check that cannot run (the database unreachable,
     * say) leaves the last one's findings standing, with a warning; before any check has run, it is a problem.
     */
    void inspect(StreamsConfig config, CapturedTables tables) {
        Findings findings = new Findings();
        try (Connection connection = config.dataSource().getConnection()) {
            String outbox = TriggerCatalog.outbox(connection); // once per pass, not once per table
            for (TableMapping mapping : tables.byTrigger()) {
                Map<String, String> types = TriggerCatalog.columnTypes(connection, mapping);
                TriggerSql sql = new TriggerSql(mapping, types, config.notifyChannel(), outbox);
                TriggerCatalog.check(connection, mapping, types, sql, findings);
                TriggerCatalog.paddedKeys(mapping, types, findings);
                sayRunning(config, connection, mapping, sql);
            }
            for (TableMapping mapping : tables.byListener()) {
                TriggerCatalog.strays(connection, mapping.entity(), mapping.qualifiedTable(), findings);
                TriggerCatalog.paddedKeys(mapping, TriggerCatalog.columnTypes(connection, mapping), findings);
            }
            paddedKeys = findings.paddedKeys();
            checked = graced(config, findings, tables.byTrigger().size());
            bare = !findings.bare().isEmpty();
            lastFailure = null;
            report = checked;
        } catch (SQLException | RuntimeException e) {
            // Health is public: the error's text (hosts, SQL) goes to the log only, once per kind of failure.
            String kind = Sql.failure(e);
            LOG.log(kind.equals(lastFailure) ? Level.FINE : Level.WARNING, "Checking the capture triggers failed", e);
            lastFailure = kind;
            String failed = "the capture triggers could not be checked (" + kind + "); the error is in the server log";
            report = checked == null ? new CaptureReport(tables.byTrigger().size(), List.of(failed), List.of())
                    : new CaptureReport(tables.byTrigger().size(), checked.problems(), append(checked.warnings(),
                            failed + ", and the last check's findings stand"));
        }
    }

    /**
     * The findings as a report on {@code tables} tables: a trigger installed from another mapping is a warning for
     * the grace period from when this instance first saw it (a rolling deploy runs two versions side by side), then a
     * problem.
     */
    private CaptureReport graced(StreamsConfig config, Findings findings, int tables) {
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
        return new CaptureReport(tables, problems, warnings);
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
    private static void sayRunning(StreamsConfig config, Connection connection, TableMapping mapping, TriggerSql sql) {
        Duration every = CaptureSettings.from(config.values()).checkInterval();
        Duration window = every.isZero() ? Duration.ofMinutes(10) : every.multipliedBy(3).plusSeconds(5);
        try {
            TriggerCatalog.running(connection, mapping, sql, window);
        } catch (SQLException e) {
            LOG.log(Level.FINE, "Could not note that this mapping of " + mapping.qualifiedTable() + " runs", e);
        }
    }
}
