package io.objectstreams.internal.schema;

import io.objectstreams.StreamsException;
import io.objectstreams.protocol.LibraryErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Applies the versioned migrations shipped in this module, in order, each at most once.
 *
 * <p>Several servers may deploy at once against one database: the whole run holds a transaction-level
 * advisory lock, so the second server waits, then finds the versions applied and does nothing.
 */
public final class SchemaMigrator {

    private static final Logger LOG = Logger.getLogger(SchemaMigrator.class.getName());

    /** Every migration, oldest first. The SQL is also published in {@code docs/schema.md}. */
    static final List<Migration> MIGRATIONS = List.of(Migration.of(1, "outbox"), Migration.of(2, "retention"),
            Migration.of(3, "trigger_capture"), Migration.of(4, "write_order"),
            Migration.of(5, "assigned_cursor_index"), Migration.of(6, "trigger_batches"),
            Migration.of(7, "cursors_by_tick"));

    /** Arbitrary but fixed: identifies Object Streams' migration lock among the database's advisory locks. */
    private static final long MIGRATION_LOCK = 0x0b5e_c7_5e_0001L;

    private SchemaMigrator() {
    }

    /**
     * Brings the schema up to date, retrying for up to {@code timeout} while the database cannot be reached;
     * returns how many migrations were applied.
     */
    public static int migrate(DataSource dataSource, Duration timeout) {
        return Reachability.retry(() -> migrate(dataSource), timeout, Reachability.SLEEP,
                "Object Streams could not reach the database to migrate its schema");
    }

    /**
     * Brings the schema up to date; returns how many migrations this call applied. A run that deadlocks with an
     * instance of an earlier version (its pruner takes the outbox before the cursor state, V7 the other way round)
     * is rolled back by PostgreSQL and run again, up to {@value #DEADLOCK_ATTEMPTS} times.
     */
    public static int migrate(DataSource dataSource) {
        for (int attempt = 1; ; attempt++) {
            try {
                return migrateOnce(dataSource);
            } catch (StreamsException e) {
                if (attempt >= DEADLOCK_ATTEMPTS || !(e.getCause() instanceof SQLException sql)
                        || !"40P01".equals(sql.getSQLState())) {
                    throw e;
                }
                LOG.warning("Object Streams' schema migration deadlocked with another session; running it again");
            }
        }
    }

    private static final int DEADLOCK_ATTEMPTS = 5;

    private static int migrateOnce(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                int applied = migrate(connection);
                connection.commit();
                return applied;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new StreamsException(LibraryErrorCode.SCHEMA_MIGRATION_FAILED,
                    "Object Streams could not migrate its schema: " + e.getMessage()
                            + ". Check the datasource's privileges, or set streams.schema.migrate=false and apply"
                            + " the SQL from docs/schema.md yourself.", e);
        }
    }

    private static int migrate(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
            statement.execute("CREATE TABLE IF NOT EXISTS streams_schema_history ("
                    + " version integer PRIMARY KEY, description text NOT NULL,"
                    + " applied_at timestamptz NOT NULL DEFAULT now())");
        }
        Set<Integer> done = appliedVersions(connection);
        int applied = 0;
        for (Migration migration : MIGRATIONS) {
            if (done.contains(migration.version())) {
                continue;
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql(migration));
            }
            try (PreparedStatement record = connection.prepareStatement(
                    "INSERT INTO streams_schema_history (version, description) VALUES (?, ?)")) {
                record.setInt(1, migration.version());
                record.setString(2, migration.description());
                record.executeUpdate();
            }
            LOG.info(() -> "Object Streams applied schema migration V" + migration.version() + " "
                    + migration.description());
            applied++;
        }
        return applied;
    }

    private static Set<Integer> appliedVersions(Connection connection) throws SQLException {
        Set<Integer> versions = new HashSet<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version FROM streams_schema_history")) {
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
        }
        return versions;
    }

    private static String sql(Migration migration) {
        try (InputStream in = SchemaMigrator.class.getResourceAsStream(migration.resource())) {
            if (in == null) {
                throw new IllegalStateException("Migration resource missing from streams-ejb: " + migration.resource());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read migration " + migration.resource(), e);
        }
    }
}
