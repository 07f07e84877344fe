package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.listener.CursorAssigner;
import io.objectstreams.internal.listener.OutboxReader;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.EarlierRelease;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.net.URL;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.util.PSQLException;

/**
 * The rollback of numbering by tick (schema V7) for a release older than V7: the script of
 * {@code GET streams/admin/numbering.sql}, fetched from the deployed server.
 *
 * <p>On the suite's database that server's own listener is connected, so the script refuses, naming it, and changes
 * nothing: the rule that every instance be stopped, as the database sees it. The rollback itself runs as an operator
 * runs it once every instance is stopped: unchanged, on a database of its own with the outbox in the same schema and no
 * instance connected, brought there as a real one would be (numbered by an earlier release, upgraded to V7, switched,
 * numbered by tick, a few rows left for the next tick). After it, every cursor is in {@code streams_outbox.cursor},
 * an earlier release's assigner numbers on from the next cursor, a second run changes nothing, and the next upgrade
 * applies V7 again and numbers on by tick. The suite's database is never changed (a safety net re-applies V7 if the
 * refusal ever failed); the other database is dropped.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class NumberingRollbackIT {

    private static final String EARLIER_LISTENER = "object-streams-listener";

    /** What the rollback changes: V7's two triggers, its record, the mode of numbering, the claim index. */
    private record Shape(long v7Triggers, boolean v7Recorded, boolean byTick, boolean claimIndex) {
    }

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    private String database;
    private String schema;

    @Test
    void theScriptIsForAdminsAndRefusesWhileAnInstanceIsConnected() throws Exception {
        assertThat(StoreClient.anonymous(base).get("streams/admin/numbering.sql").status()).isEqualTo(401);
        assertThat(StoreClient.as("alice", base).get("streams/admin/numbering.sql").status()).isEqualTo(403);
        String script = script();
        assertThat(script).startsWith("-- Object Streams").contains("STOP EVERY INSTANCE").contains("\nBEGIN;\n")
                .endsWith("\nCOMMIT;\n")
                .contains("UPDATE " + quoted(outboxSchema()) + ".streams_outbox o SET cursor = c.cursor");
        await().atMost(Duration.ofSeconds(30)).until(() -> count(TestDatabase.connect(),
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND application_name = 'object-streams-listener'") > 0);
        Shape before;
        try (Connection c = TestDatabase.connect()) {
            before = shape(c);
        }
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute(script)).isInstanceOf(PSQLException.class)
                    .hasMessageContaining("Object Streams sessions are still connected to this database")
                    .hasMessageContaining("object-streams-listener (pid ").hasMessageContaining("Nothing was changed")
                    .satisfies(e -> {
                        PSQLException refusal = (PSQLException) e;
                        assertThat(refusal.getSQLState()).as("object_in_use").isEqualTo("55006");
                        assertThat(refusal.getServerErrorMessage().getHint()).startsWith("Stop every instance");
                    });
        } finally {
            try (Connection c = TestDatabase.connect()) {
                if (!shape(c).v7Recorded()) {
                    // The refusal failed and the script ran: V7 again, triggers and all, for the rest of the suite.
                    SchemaMigrator.migrate(TestDatabase.dataSource());
                }
            }
        }
        try (Connection c = TestDatabase.connect()) {
            assertThat(shape(c)).as("nothing changed").isEqualTo(before);
        }
    }

    @Test
    void afterTheRollbackEveryCursorIsInItsRowAndAnEarlierReleaseNumbersOnUntilTheNextUpgrade() throws Exception {
        String script = script();
        schema = outboxSchema();
        database = "it_rollback_" + Long.toString(System.nanoTime(), 36);
        TestDatabase.execute("CREATE DATABASE " + database);
        try {
            numberedByTick();
            Map<Long, Long> given = pairs("SELECT cursor, outbox_id FROM streams_cursors ORDER BY cursor");
            assertThat(given.keySet()).containsExactlyElementsOf(range(15));
            assertThat(pairs(column())).as("those given by tick are not in the column").hasSize(6);
            List<Long> unnumbered = ids("SELECT id FROM streams_outbox WHERE cursor IS NULL"
                    + " AND id NOT IN (SELECT outbox_id FROM streams_cursors) ORDER BY id");
            assertThat(unnumbered).hasSize(3);

            run(script);
            checkRolledBack(given);
            run(script);
            checkRolledBack(given);
            strayInstanceIsRefused(given);

            try (Connection earlier = source(EARLIER_LISTENER).getConnection()) {
                write(earlier, 1);
                unnumbered.addAll(ids("SELECT max(id) FROM streams_outbox"));
                assertThat(EarlierRelease.assignBatch(earlier, 100)).isEqualTo(4);
            }
            Map<Long, Long> column = pairs(column());
            assertThat(column.keySet()).as("on from the next cursor").containsExactlyElementsOf(range(19));
            assertThat(column).containsAllEntriesOf(given);
            assertThat(List.of(column.get(16L), column.get(17L), column.get(18L), column.get(19L)))
                    .as("in write order").isEqualTo(unnumbered);
            assertThat(count("SELECT last_cursor FROM streams_cursor_state")).isEqualTo(19);
            assertThat(pairs("SELECT cursor, outbox_id FROM streams_cursors ORDER BY cursor"))
                    .as("copied as the earlier release gives them, as before the switch").isEqualTo(column);

            awaitNoListener();
            assertThat(SchemaMigrator.migrate(source("it-migrate"))).as("the next upgrade applies V7 again").isOne();
            try (Connection c = source("it-read").getConnection()) {
                assertThat(shape(c)).as("numbering one by one until the switch, the guard V7's own again")
                        .isEqualTo(new Shape(2, true, false, true));
            }
            assertThat(pairs("SELECT cursor, outbox_id FROM streams_cursors ORDER BY cursor"))
                    .as("with the cursors the earlier release gave").isEqualTo(column);
            try (Connection listener = source("it-new-listener").getConnection()) {
                write(listener, 2);
                assertThat(new CursorAssigner(1000, "it_rollback").assignAll(listener)).isEqualTo(2);
                assertThat(OutboxReader.readAfter(listener, 0, 100)).extracting(StreamEvent::cursor)
                        .containsExactlyElementsOf(range(21));
                assertThat(shape(listener)).as("switched again").isEqualTo(new Shape(2, true, true, false));
            }
        } finally {
            TestDatabase.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    /**
     * The outbox as a release of V7 leaves it: cursors 1 to 6 given by an earlier release, row by row; 7 to 10 by
     * the switch after the upgrade and 11 to 15 by a tick, in {@code streams_cursors} only; three rows committed since.
     */
    private void numberedByTick() throws Exception {
        try (Connection c = source("it-setup").getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + quoted(schema));
            EarlierRelease.createSchema(c);
        }
        try (Connection earlier = source(EARLIER_LISTENER).getConnection()) {
            write(earlier, 10);
            assertThat(EarlierRelease.assignBatch(earlier, 6)).isEqualTo(6);
        }
        assertThat(SchemaMigrator.migrate(source("it-migrate"))).isOne();
        awaitNoListener();
        try (Connection listener = source("it-new-listener").getConnection()) {
            CursorAssigner assigner = new CursorAssigner(1000, "it_rollback");
            assertThat(assigner.assignAll(listener)).as("the switch").isEqualTo(4);
            write(listener, 5);
            assertThat(assigner.assignAll(listener)).as("a tick").isEqualTo(5);
            write(listener, 3);
            assertThat(shape(listener)).as("numbering by tick").isEqualTo(new Shape(2, true, true, false));
        }
    }

    /**
     * An instance of V7 that was missed, or that reconnected after the script's check, goes to switch to ticks again
     * the moment it sees no earlier release: the guard, turned around by the script, refuses it, and nothing changes.
     */
    private void strayInstanceIsRefused(Map<Long, Long> given) throws SQLException {
        try (Connection listener = source("it-new-listener").getConnection()) {
            assertThatThrownBy(() -> new CursorAssigner(1000, "it_rollback").assignAll(listener))
                    .isInstanceOf(PSQLException.class).hasMessageContaining("rolled back")
                    .satisfies(e -> assertThat(((PSQLException) e).getSQLState()).isEqualTo("55000"));
        }
        checkRolledBack(given);
    }

    private void checkRolledBack(Map<Long, Long> given) throws SQLException {
        assertThat(pairs(column())).as("every cursor in its row").isEqualTo(given);
        assertThat(pairs("SELECT cursor, outbox_id FROM streams_cursors ORDER BY cursor")).as("and kept")
                .isEqualTo(given);
        assertThat(count("SELECT count(*) FROM streams_outbox WHERE cursor IS NULL")).isEqualTo(3);
        try (Connection c = source("it-read").getConnection()) {
            assertThat(shape(c)).as("numbering one by one").isEqualTo(new Shape(2, false, false, true));
        }
        assertThat(count("SELECT count(*) FROM pg_proc WHERE oid = to_regprocedure('streams_cursor_state_guard()')"
                + " AND prosrc LIKE '%rolled back%'")).as("the guard turned around").isOne();
        assertThat(count("SELECT count(*) FROM pg_trigger WHERE tgname = 'streams_copy_cursor'"
                + " AND tgrelid = to_regclass('streams_outbox') AND tgenabled = 'O'")).as("copying, enabled").isOne();
        assertThat(count("SELECT count(*) FROM pg_index i WHERE i.indexrelid = to_regclass('streams_outbox_claim')"
                + " AND i.indisvalid AND pg_get_indexdef(i.indexrelid) ~ '^CREATE INDEX streams_outbox_claim ON \\S+"
                + " USING btree \\(wal_position, id\\) WHERE \\(cursor IS NULL\\)$'")).as("V4's claim index").isOne();
        assertThat(count("SELECT count(*) FROM streams_schema_history")).as("V1 to V6 stay recorded").isEqualTo(6);
        assertThat(count("SELECT count(*) FROM pg_trigger WHERE tgname = 'streams_local_transaction'"
                + " AND tgrelid = to_regclass('streams_outbox')")).as("kept: harmless to an earlier release").isOne();
    }

    private static Shape shape(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM pg_trigger"
                + " WHERE NOT tgisinternal AND tgname IN ('streams_copy_cursor', 'streams_cursor_state_guard')"
                + " AND tgrelid IN (to_regclass('streams_outbox'), to_regclass('streams_cursor_state'))),"
                + " EXISTS (SELECT 1 FROM streams_schema_history WHERE version = 7),"
                + " (SELECT last_snapshot IS NOT NULL FROM streams_cursor_state WHERE id = 1),"
                + " to_regclass('streams_outbox_claim') IS NOT NULL")) {
            rs.next();
            return new Shape(rs.getLong(1), rs.getBoolean(2), rs.getBoolean(3), rs.getBoolean(4));
        }
    }

    /** The script, as an operator fetches it. */
    private String script() {
        StoreClient.Reply reply = StoreClient.as("carol", base).get("streams/admin/numbering.sql");
        assertThat(reply.status()).as("GET numbering.sql: %s", reply.raw()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("text/plain");
        return reply.raw();
    }

    /**
     * Runs the script as an operator would, in a session of its own, whose search path does not find the outbox:
     * every name in the script is qualified.
     */
    private void run(String script) throws SQLException {
        PGSimpleDataSource operator = source("it-operator");
        operator.setCurrentSchema("pg_catalog");
        try (Connection c = operator.getConnection(); Statement s = c.createStatement()) {
            s.execute(script);
        }
    }

    /** The schema of the suite's outbox, where the deployed server finds it too. */
    private static String outboxSchema() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT n.nspname FROM pg_class c JOIN pg_namespace n"
                     + " ON n.oid = c.relnamespace WHERE c.oid = to_regclass('streams_outbox')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Waits until this database no longer lists a closed session named like a listener. */
    private void awaitNoListener() {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> count(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND application_name = '" + EARLIER_LISTENER + "'") == 0);
    }

    private static String column() {
        return "SELECT cursor, id FROM streams_outbox WHERE cursor IS NOT NULL ORDER BY cursor";
    }

    private static List<Long> range(int through) {
        return LongStream.rangeClosed(1, through).boxed().toList();
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static void write(Connection connection, int rows) throws SQLException {
        try (Statement s = connection.createStatement()) {
            for (int i = 0; i < rows; i++) {
                s.execute("INSERT INTO streams_outbox (model, subject_pk, op) VALUES ('it.RolledBack', '" + (i % 3)
                        + "', 'updated')");
            }
        }
    }

    private PGSimpleDataSource source(String applicationName) {
        PGSimpleDataSource source = (PGSimpleDataSource) TestDatabase.dataSource();
        source.setDatabaseName(database);
        source.setCurrentSchema(schema);
        source.setApplicationName(applicationName);
        return source;
    }

    private Map<Long, Long> pairs(String query) throws SQLException {
        Map<Long, Long> pairs = new LinkedHashMap<>();
        try (Connection c = source("it-read").getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                pairs.put(rs.getLong(1), rs.getLong(2));
            }
        }
        return pairs;
    }

    private List<Long> ids(String query) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = source("it-read").getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private long count(String query) throws SQLException {
        return count(source("it-read").getConnection(), query);
    }

    /** The query's one number, on {@code c}, which it closes. */
    private static long count(Connection c, String query) throws SQLException {
        try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
