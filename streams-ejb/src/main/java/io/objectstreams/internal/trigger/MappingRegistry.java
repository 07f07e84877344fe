package io.objectstreams.internal.trigger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Which capture mappings of a table deployments have installed, in the order they were first seen, and whether an
 * instance running each still runs (schema V6's {@code streams_capture_mapping}). A mapping is never replaced by an
 * older one while an instance of the newer one runs: an instance of the previous version that restarts during a
 * rolling deploy would otherwise put its triggers back, and what only the new mapping compares would go unreported
 * (G16).
 */
final class MappingRegistry {

    private static final String SEEN = "INSERT INTO streams_capture_mapping (table_name, hash) VALUES (?, ?)"
            + " ON CONFLICT (table_name, hash) DO NOTHING";

    private static final String RUNNING = "INSERT INTO streams_capture_mapping (table_name, hash, running_until)"
            + " VALUES (?, ?, clock_timestamp() + ? * interval '1 millisecond') ON CONFLICT (table_name, hash)"
            + " DO UPDATE SET running_until = excluded.running_until";

    private static final String NEWER_RUNNING = "SELECT EXISTS (SELECT 1 FROM streams_capture_mapping f"
            + " JOIN streams_capture_mapping m ON m.table_name = f.table_name AND m.hash = ?"
            + " WHERE f.table_name = ? AND f.hash = ? AND f.first_seen > m.first_seen"
            + " AND f.running_until > clock_timestamp())";

    private MappingRegistry() {
    }

    /** Notes that {@code hash} was seen for {@code table}, keeping the first time. */
    static void seen(Connection connection, String table, String hash) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(SEEN)) {
            statement.setString(1, table);
            statement.setString(2, hash);
            statement.executeUpdate();
        }
    }

    /** Notes that an instance running {@code hash} runs, for {@code window} from now. */
    static void running(Connection connection, String table, String hash, Duration window) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(RUNNING)) {
            statement.setString(1, table);
            statement.setString(2, hash);
            statement.setLong(3, window.toMillis());
            statement.executeUpdate();
        }
    }

    /** Whether {@code installed} was first seen after {@code mine} and an instance running it still runs. */
    static boolean newerRunning(Connection connection, String table, String mine, String installed)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(NEWER_RUNNING)) {
            query.setString(1, mine);
            query.setString(2, table);
            query.setString(3, installed);
            try (ResultSet row = query.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }
}
