package io.objectstreams.internal.trigger;

import io.objectstreams.feed.CaptureSettings;
import io.objectstreams.internal.config.StreamsConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Installs the capture of the trigger-captured tables: one pass installing what needs it, table by table, each in its
 * own transaction, so one locked table leaves the others installed (what cannot be installed is logged with the
 * fix); or the script of it all, for a DBA to run.
 */
final class CaptureInstalls {

    private static final Logger LOG = Logger.getLogger(CaptureInstalls.class.getName());

    private CaptureInstalls() {
    }

    /** Installs what the check found missing or from another mapping, unless a newer mapping's instance runs. */
    static void installAll(StreamsConfig config, List<TableMapping> captured) {
        Duration lockTimeout = CaptureSettings.from(config.values()).installLockTimeout();
        int installed = 0;
        try (Connection connection = config.dataSource().getConnection()) {
            String outbox = TriggerCatalog.outbox(connection); // once per pass, not once per table
            for (TableMapping mapping : captured) {
                Map<String, String> types = TriggerCatalog.columnTypes(connection, mapping);
                if (types.isEmpty() || !mapping.columns().stream().allMatch(types::containsKey)) {
                    continue; // the check names what is wrong with the table; installing cannot fix it
                }
                try {
                    TriggerSql sql = new TriggerSql(mapping, types, config.notifyChannel(), outbox);
                    installed += TriggerCatalog.install(connection, mapping, sql, lockTimeout) ? 1 : 0;
                } catch (SQLException e) {
                    LOG.log(Level.WARNING, "Object Streams could not install the capture triggers of table "
                            + mapping.qualifiedTable() + " (" + Sql.failure(e) + ", within"
                            + " streams.capture.install-lock-timeout=" + lockTimeout + " for its locks); "
                            + TriggerCatalog.installHint(), e);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.SEVERE, "Object Streams could not install its capture triggers; "
                    + TriggerCatalog.installHint(), e);
        }
        int count = installed;
        LOG.info(() -> "Object Streams installed the capture triggers of " + count + " table(s)");
    }

    /** The SQL that installs the capture of every table of {@code captured} as this deployment maps it: for a DBA. */
    static String script(StreamsConfig config, List<TableMapping> captured) throws SQLException {
        StringBuilder script = new StringBuilder("-- Object Streams trigger capture (docs/capture.md). Run as the"
                + " owner of the tables; it replaces what an earlier mapping installed.\nBEGIN;\n");
        try (Connection connection = config.dataSource().getConnection()) {
            String outbox = TriggerCatalog.outbox(connection); // once per pass, not once per table
            for (TableMapping mapping : captured) {
                TriggerSql sql = new TriggerSql(mapping, TriggerCatalog.columnTypes(connection, mapping),
                        config.notifyChannel(), outbox);
                List<String> statements = new ArrayList<>(sql.install());
                for (String descendant : Descendants.of(connection, mapping.qualifiedTable())) {
                    statements.addAll(sql.installOn(descendant));
                }
                statements.forEach(statement -> script.append(statement).append(";\n"));
            }
        }
        return script.append("COMMIT;\n").toString();
    }
}
