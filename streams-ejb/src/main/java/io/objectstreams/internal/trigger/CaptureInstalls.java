package io.objectstreams.internal.trigger;

import io.objectstreams.feed.CaptureSettings;
import io.objectstreams.internal.config.StreamsConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One pass installing the capture of every trigger-captured table that needs it, table by table, each in its own
 * transaction, so one locked table leaves the others installed; what cannot be installed is logged with the fix.
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
}
