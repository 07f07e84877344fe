package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.internal.trigger.Findings;
import io.objectstreams.internal.trigger.TableMapping;
import io.objectstreams.internal.trigger.TriggerCatalog;
import io.objectstreams.internal.trigger.TriggerSql;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Installing one table's capture triggers against a real PostgreSQL, as a deployment with
 * {@code streams.schema.migrate=true} does: a table another transaction holds locked costs at most the lock timeout
 * and leaves the table as it was; a table another instance has just installed is not installed again; the columns
 * are those of the table the writers' search path finds.
 */
class TriggerInstallIT {

    private static final TableMapping MAPPING = new TableMapping("it.Locked", null, "it_install", List.of("id"),
            "it.Locked", "object", false, List.of("id", "body", "tags"), Map.of("body", List.of("body"), "tags", List.of("tags")));

    @BeforeAll
    static void table() throws SQLException {
        TestDatabase.start();
        SchemaMigrator.migrate(TestDatabase.dataSource());
        sql("DROP SCHEMA IF EXISTS it_elsewhere CASCADE");
        sql("DROP TABLE IF EXISTS it_install");
        sql("CREATE TABLE it_install (id bigint PRIMARY KEY, body json, tags json[])");
    }

    @AfterAll
    static void drop() throws SQLException {
        sql("DROP TABLE IF EXISTS it_install");
        sql("DROP SCHEMA IF EXISTS it_elsewhere CASCADE");
    }

    @Test
    void aLockedTableCostsTheLockTimeoutAndIsLeftAsItWas() throws Exception {
        try (Connection holder = TestDatabase.connect(); Connection installer = TestDatabase.connect()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.execute("LOCK TABLE it_install IN ROW EXCLUSIVE MODE"); // an open write transaction
            }
            long start = System.nanoTime();
            assertThatThrownBy(() -> TriggerCatalog.install(installer, MAPPING, sql(installer), Duration.ofMillis(300)))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55P03"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(installer.getAutoCommit()).isTrue();
            holder.rollback();
            Findings findings = findings(installer);
            assertThat(findings.problems()).anySatisfy(p -> assertThat(p).contains("has no trigger"));
        }
    }

    @Test
    void aTableInstalledMeanwhileIsNotInstalledAgainAndJsonArraysCompare() throws Exception {
        try (Connection installer = TestDatabase.connect()) {
            TriggerSql sql = sql(installer);
            TriggerCatalog.install(installer, MAPPING, sql, Duration.ofSeconds(5));
            assertThat(findings(installer).problems()).isEmpty();
            assertThat(TriggerCatalog.install(installer, MAPPING, sql, Duration.ofSeconds(5)))
                    .as("checked again under the install lock: nothing to do").isFalse();
            // An update of a json[] column: json has no equality operator, so the arrays are compared as text.
            sql("INSERT INTO it_install VALUES (1, '{}', ARRAY['{}']::json[])");
            sql("UPDATE it_install SET tags = ARRAY['{\"a\": 1}']::json[] WHERE id = 1");
            sql("UPDATE it_install SET tags = tags WHERE id = 1");
            assertThat(value("SELECT string_agg(op || ' ' || changed_fields::text, ',' ORDER BY id)"
                    + " FROM streams_numbered WHERE model = 'it.Locked'")).isEqualTo("created {},updated {tags}");
            sql("DELETE FROM streams_outbox WHERE model = 'it.Locked'");
            sql("DROP TABLE it_install");
            sql("CREATE TABLE it_install (id bigint PRIMARY KEY, body json, tags json[])");
        }
    }

    /**
     * Issue 40 item 9 (G16): in a rolling deploy, an instance of the previous version that restarts must not put its
     * older mapping back over the newer one while an instance of the newer one runs (before, it did, and attributes
     * only the new mapping compares went unreported); once no instance of the newer one is seen, a rollback installs.
     */
    @Test
    void anOlderMappingNeverReplacesANewerOneWhileAnInstanceOfTheNewerRuns() throws Exception {
        TableMapping newer = new TableMapping("it.Locked", null, "it_install", List.of("id"), "it.Locked", "object",
                false, List.of("id", "body", "tags"), Map.of("body", List.of("body")));
        try (Connection c = TestDatabase.connect()) {
            TriggerSql old = sql(c);
            TriggerSql next = new TriggerSql(newer, TriggerCatalog.columnTypes(c, newer), "object_streams_events",
                    TriggerCatalog.outbox(c));
            TriggerCatalog.install(c, MAPPING, old, Duration.ofSeconds(5));
            TriggerCatalog.running(c, MAPPING, old, Duration.ofMinutes(1));
            // The new version deploys: its mapping replaces the old one, and its instances keep saying they run.
            assertThat(TriggerCatalog.install(c, newer, next, Duration.ofSeconds(5))).isTrue();
            TriggerCatalog.running(c, newer, next, Duration.ofMinutes(1));
            assertThat(installedHash()).isEqualTo(next.hash());

            // An instance of the old version restarts: its install leaves the newer mapping in place.
            assertThat(TriggerCatalog.install(c, MAPPING, old, Duration.ofSeconds(5))).isFalse();
            assertThat(installedHash()).as("the newer mapping stays").isEqualTo(next.hash());

            // No instance of the newer mapping has said it runs for a while: a rollback installs the old one.
            sql("UPDATE streams_capture_mapping SET running_until = now() - interval '1 second'"
                    + " WHERE hash = '" + next.hash() + "'");
            assertThat(TriggerCatalog.install(c, MAPPING, old, Duration.ofSeconds(5))).isTrue();
            assertThat(installedHash()).isEqualTo(old.hash());
        } finally {
            freshTable();
        }
    }

    /**
     * Issue 40 item 9: the check compared trigger names and comments only, so a function body replaced, or a trigger
     * made to fire on another event, under the same comment passed as current.
     */
    @Test
    void aFunctionBodyOrATriggerKindChangedUnderTheSameCommentIsAProblem() throws Exception {
        try (Connection c = TestDatabase.connect()) {
            TriggerSql sql = sql(c);
            TriggerCatalog.install(c, MAPPING, sql, Duration.ofSeconds(5));
            assertThat(findings(c).problems()).isEmpty();
            String function = value("SELECT tgfoid::regproc::text FROM pg_trigger WHERE tgrelid = 'it_install'::regclass"
                    + " AND tgname = 'streams_capture_insert'");
            sql("CREATE OR REPLACE FUNCTION " + function + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL;"
                    + " END $$");
            assertThat(findings(c).problems()).anySatisfy(p -> assertThat(p).contains("streams_capture_insert")
                    .contains("runs a function"));
            TriggerCatalog.install(c, MAPPING, sql, Duration.ofSeconds(5));
            assertThat(findings(c).problems()).isEmpty();

            String comment = value("SELECT obj_description(oid, 'pg_trigger') FROM pg_trigger"
                    + " WHERE tgrelid = 'it_install'::regclass AND tgname = 'streams_capture_update'");
            sql("DROP TRIGGER streams_capture_update ON it_install");
            sql("CREATE TRIGGER streams_capture_update AFTER INSERT ON it_install REFERENCING NEW TABLE AS streams_new"
                    + " FOR EACH STATEMENT EXECUTE FUNCTION " + function + "()");
            sql("COMMENT ON TRIGGER streams_capture_update ON it_install IS '" + comment + "'");
            assertThat(findings(c).problems()).anySatisfy(p -> assertThat(p).contains("streams_capture_update")
                    .contains("fires"));
        } finally {
            freshTable();
        }
    }

    /** The table again, with no trigger and no row, for the next test. */
    private static void freshTable() throws SQLException {
        sql("DELETE FROM streams_outbox WHERE model = 'it.Locked'");
        sql("DROP TABLE it_install");
        sql("CREATE TABLE it_install (id bigint PRIMARY KEY, body json, tags json[])");
    }

    /**
     * Issue 40 item 6: a foreign table attached as a partition can carry no capture trigger, so writes naming it
     * cannot be captured; the check names it as a problem rather than let it pass.
     */
    @Test
    void aForeignTableAmongThePartitionsIsAProblemNamingIt() throws Exception {
        TableMapping parted = new TableMapping("it.Parted", null, "it_parted", List.of("id"), "it.Parted", "object",
                false, List.of("id", "note"), Map.of("note", List.of("note")));
        sql("CREATE EXTENSION IF NOT EXISTS postgres_fdw");
        sql("DROP TABLE IF EXISTS it_parted CASCADE");
        sql("DROP SERVER IF EXISTS it_elsewhere_server CASCADE");
        sql("CREATE SERVER it_elsewhere_server FOREIGN DATA WRAPPER postgres_fdw OPTIONS (dbname 'nowhere')");
        sql("CREATE TABLE it_parted (id bigint, note text) PARTITION BY RANGE (id)");
        sql("CREATE TABLE it_parted_here PARTITION OF it_parted FOR VALUES FROM (0) TO (100)");
        sql("CREATE FOREIGN TABLE it_parted_there PARTITION OF it_parted FOR VALUES FROM (100) TO (200)"
                + " SERVER it_elsewhere_server");
        try (Connection c = TestDatabase.connect()) {
            TriggerSql sql = new TriggerSql(parted, TriggerCatalog.columnTypes(c, parted), "object_streams_events",
                    TriggerCatalog.outbox(c));
            TriggerCatalog.install(c, parted, sql, Duration.ofSeconds(5));
            Findings findings = new Findings();
            TriggerCatalog.check(c, parted, TriggerCatalog.columnTypes(c, parted), sql, findings);
            assertThat(findings.problems()).singleElement().satisfies(p -> assertThat(p)
                    .contains("it_parted_there").contains("foreign table").contains("not captured"));
        } finally {
            sql("DROP TABLE IF EXISTS it_parted CASCADE");
            sql("DROP SERVER IF EXISTS it_elsewhere_server CASCADE");
        }
    }

    private static String installedHash() throws SQLException {
        return value("SELECT substring(obj_description(oid, 'pg_trigger') from 'capture (.*)$') FROM pg_trigger"
                + " WHERE tgrelid = 'it_install'::regclass AND tgname = 'streams_capture_insert'");
    }

    @Test
    void theColumnsAreThoseOfTheTableTheSearchPathFinds() throws Exception {
        sql("CREATE SCHEMA it_elsewhere");
        sql("CREATE TABLE it_elsewhere.it_install (id bigint PRIMARY KEY)");
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("SET search_path = it_elsewhere, public");
            assertThat(TriggerCatalog.columnTypes(c, MAPPING)).containsOnlyKeys("id");
            s.execute("SET search_path = public");
            assertThat(TriggerCatalog.columnTypes(c, MAPPING)).containsEntry("body", "json")
                    .containsEntry("tags", "array of json");
        } finally {
            sql("DROP SCHEMA it_elsewhere CASCADE");
        }
    }

    private static Findings findings(Connection connection) throws SQLException {
        Findings findings = new Findings();
        TriggerCatalog.check(connection, MAPPING, TriggerCatalog.columnTypes(connection, MAPPING), sql(connection), findings);
        return findings;
    }

    private static TriggerSql sql(Connection connection) throws SQLException {
        return new TriggerSql(MAPPING, TriggerCatalog.columnTypes(connection, MAPPING), "object_streams_events",
                TriggerCatalog.outbox(connection));
    }

    private static String value(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void sql(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
