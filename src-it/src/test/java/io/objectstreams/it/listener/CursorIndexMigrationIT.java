package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Schema version 5 against a real PostgreSQL, in a schema of its own: cursors stay unique among assigned rows, a fresh
 * row's {@code NULL} is no longer indexed, and a relation already named like the new index (which
 * {@code IF NOT EXISTS} would keep) fails the migration with the fix instead of leaving cursors without a unique
 * index.
 */
class CursorIndexMigrationIT {

    private static final String SCHEMA = "it_cursor_index";

    @BeforeAll
    static void schema() throws SQLException {
        TestDatabase.start();
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        sql("CREATE SCHEMA " + SCHEMA);
    }

    @AfterAll
    static void drop() throws SQLException {
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    }

    @Test
    void aRelationNamedLikeTheIndexFailsTheMigrationAndCursorsStayUnique() throws Exception {
        PGSimpleDataSource source = source();
        SchemaMigrator.migrate(source);
        // Back to version 4, with a non-unique index of the new index's name (a DBA's, say).
        sql("DROP INDEX " + SCHEMA + ".streams_outbox_cursor");
        sql("ALTER TABLE " + SCHEMA + ".streams_outbox ADD CONSTRAINT streams_outbox_cursor_key UNIQUE (cursor)");
        sql("CREATE INDEX streams_outbox_cursor ON " + SCHEMA + ".streams_outbox (cursor)");
        sql("DELETE FROM " + SCHEMA + ".streams_schema_history WHERE version = 5");

        assertThatThrownBy(() -> SchemaMigrator.migrate(source))
                .isInstanceOf(StreamsException.class)
                .hasMessageContaining("streams_outbox_cursor exists but is not a valid unique index");
        assertThat(count("SELECT count(*) FROM pg_constraint WHERE conname = 'streams_outbox_cursor_key'"
                + " AND connamespace = '" + SCHEMA + "'::regnamespace")).as("rolled back: the constraint stays").isOne();

        sql("DROP INDEX " + SCHEMA + ".streams_outbox_cursor");
        assertThat(SchemaMigrator.migrate(source)).isOne();
        assertThat(count("SELECT count(*) FROM pg_constraint WHERE conname = 'streams_outbox_cursor_key'"
                + " AND connamespace = '" + SCHEMA + "'::regnamespace")).isZero();
        assertThat(count("SELECT count(*) FROM pg_indexes WHERE schemaname = '" + SCHEMA + "'"
                + " AND indexname = 'streams_outbox_cursor' AND indexdef LIKE 'CREATE UNIQUE INDEX%WHERE (cursor IS NOT NULL)'"))
                .isOne();

        sql("INSERT INTO " + SCHEMA + ".streams_outbox (model, subject_pk, op) VALUES ('it.M', '1', 'updated'),"
                + " ('it.M', '2', 'updated'), ('it.M', '3', 'updated')");
        // Numbering one by one, as before the switch to ticks (V7): the cursor column and V5's index are in use.
        sql("UPDATE " + SCHEMA + ".streams_cursor_state SET last_snapshot = NULL"
                + " WHERE id = 1 AND set_config('streams.schema', '7', true) = '7'");
        sql("UPDATE " + SCHEMA + ".streams_outbox SET cursor = 1 WHERE subject_pk = '1'");
        assertThatThrownBy(() -> sql("UPDATE " + SCHEMA + ".streams_outbox SET cursor = 1 WHERE subject_pk = '2'"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
        assertThat(count("SELECT count(*) FROM " + SCHEMA + ".streams_outbox WHERE cursor IS NULL")).isEqualTo(2);
    }

    private static PGSimpleDataSource source() {
        PGSimpleDataSource source = (PGSimpleDataSource) TestDatabase.dataSource();
        source.setCurrentSchema(SCHEMA);
        return source;
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static long count(String query) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
