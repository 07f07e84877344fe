package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.listener.CursorAssigner;
import io.objectstreams.internal.listener.OutboxReader;
import io.objectstreams.internal.schema.SchemaMigrator;
import io.objectstreams.it.support.EarlierRelease;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Schema V7 (cursors by tick, issue 44) upgraded in place on a real PostgreSQL, in a schema of its own: rows numbered
 * before the upgrade keep their cursors, rows still unnumbered at the upgrade and rows written after it follow them,
 * gap-free and each once; an instance of the earlier version, simulated by its own SQL on a session named as its
 * listener was, keeps numbering one by one beside this version until it goes, and fails loudly if it comes back
 * after the switch. Each test checks every row against the outbox itself, read two ways: the cursor column an earlier
 * version reads, and {@code streams_cursors} that this version reads.
 */
class CursorsByTickMigrationIT {

    private static final String SCHEMA = "it_cursors_by_tick";

    @BeforeEach
    void versionSix() throws Exception {
        TestDatabase.start();
        awaitNoEarlierVersion();
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        sql("CREATE SCHEMA " + SCHEMA);
        try (Connection c = source("it-setup").getConnection()) {
            EarlierRelease.createSchema(c);
        }
    }

    /**
     * Waits until PostgreSQL no longer lists a closed session named like an earlier version's listener: one without
     * this version's mark (a shared advisory lock, key 0x0b5e0007_00000007), which servers of this version hold.
     */
    private static void awaitNoEarlierVersion() throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (count("SELECT count(*) FROM pg_stat_activity a WHERE a.application_name = 'object-streams-listener'"
                + " AND a.datname = current_database() AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid"
                + " AND l.locktype = 'advisory' AND l.classid = " + 0x0b5e_0007L + " AND l.objid = 7)") > 0) {
            assertThat(System.nanoTime()).as("the closed session is gone within 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @AfterEach
    void drop() throws SQLException {
        sql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    }

    @Test
    void rowsUnnumberedAtTheUpgradeAndAnEarlierInstanceBesideThisOneKeepOneGapFreeOrder() throws Exception {
        try (Connection old = source("object-streams-listener").getConnection();
             Connection listener = source("it-new-listener").getConnection()) {
            write(old, 50);
            assertThat(legacyBatch(old, 30)).isEqualTo(30);

            assertThat(SchemaMigrator.migrate(source("it-migrate"))).isOne();
            assertThat(rowsWithoutCursor()).as("left unnumbered by the upgrade").isEqualTo(20);

            CursorAssigner assigner = new CursorAssigner(7, "it_cursors_by_tick");
            write(listener, 10);
            // Both number one by one while the earlier instance is connected, taking turns.
            assertThat(legacyBatch(old, 5)).isEqualTo(5);
            assertThat(assigner.assignBatch(listener)).isEqualTo(7);
            assertThat(legacyBatch(old, 5)).isEqualTo(5);
            assertThat(snapshotRecorded()).as("still numbering one by one").isFalse();
            checkOneGapFreeOrder(47, 13);
            assertThat(columnCursors()).as("what an earlier version reads").isEqualTo(numberedCursors());

            old.close();
            awaitNoEarlierVersion();
            write(listener, 10);
            assertThat(assigner.assignAll(listener)).as("the switch numbers what is left").isEqualTo(23);
            assertThat(snapshotRecorded()).isTrue();
            write(listener, 10);
            assertThat(assigner.assignAll(listener)).isEqualTo(10);
            checkOneGapFreeOrder(80, 0);
            assertThat(count("SELECT count(*) FROM pg_indexes WHERE schemaname = '" + SCHEMA
                    + "' AND indexname = 'streams_outbox_claim'")).as("dropped at the switch").isZero();
        }
        try (Connection back = source("object-streams-listener").getConnection()) {
            write(back, 3);
            assertThatThrownBy(() -> legacyBatch(back, 5)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("an instance of an earlier version must not assign cursors");
            back.rollback();
            assertThatThrownBy(() -> execute(back, "UPDATE streams_cursor_state SET pruned_through = 5 WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("must not assign cursors or prune");
            back.rollback();
        }
        awaitNoEarlierVersion();
        try (Connection listener = source("it-new-listener").getConnection()) {
            assertThat(new CursorAssigner(7, "it_cursors_by_tick").assignAll(listener)).isEqualTo(3);
        }
        checkOneGapFreeOrder(83, 0);
    }

    @Test
    void aTransactionThatCommitsAfterATickIsNumberedByALaterOneAfterEverythingBefore() throws Exception {
        SchemaMigrator.migrate(source("it-migrate"));
        try (Connection listener = source("it-new-listener").getConnection();
             Connection late = source("it-late").getConnection()) {
            CursorAssigner assigner = new CursorAssigner(1000, "it_cursors_by_tick");
            assigner.assignAll(listener); // the switch, on an empty outbox
            late.setAutoCommit(false);
            write(late, 3);
            write(listener, 4);
            assertThat(assigner.assignAll(listener)).as("the open transaction's rows wait").isEqualTo(4);
            late.commit();
            write(listener, 2);
            assertThat(assigner.assignAll(listener)).isEqualTo(5);
            checkOneGapFreeOrder(9, 0);
            List<StreamEvent> events = OutboxReader.readAfter(listener, 4, 100);
            assertThat(events).extracting(StreamEvent::cursor).containsExactly(5L, 6L, 7L, 8L, 9L);
        }
    }

    @Test
    void aRowNumberedAfterOneOfALaterTransactionIsStillFoundByAReplayFromBeforeBoth() throws Exception {
        SchemaMigrator.migrate(source("it-migrate"));
        try (Connection listener = source("it-new-listener").getConnection();
             Connection late = source("it-late").getConnection()) {
            CursorAssigner assigner = new CursorAssigner(1000, "it_cursors_by_tick");
            assigner.assignAll(listener);
            late.setAutoCommit(false);
            execute(late, "SELECT txid_current()"); // the lower transaction id, taken first
            write(listener, 1);
            write(late, 1);
            late.commit();
            assertThat(assigner.assignAll(listener)).as("one tick, in write order").isEqualTo(2);
            assertThat(OutboxReader.readSubjectBetween(listener, "it.Migrated", "0", 0, Long.MAX_VALUE, 10))
                    .as("the second row's transaction id is below the first's: the first cursor's floor covers it")
                    .extracting(StreamEvent::cursor).containsExactly(1L, 2L);
        }
    }

    @Test
    void transactionIdsThatWentBackwardsAreFoundByAReconciliationAndReplayFindsTheirRows() throws Exception {
        SchemaMigrator.migrate(source("it-migrate"));
        try (Connection listener = source("it-new-listener").getConnection()) {
            CursorAssigner assigner = new CursorAssigner(1000, "it_cursors_by_tick");
            write(listener, 5);
            assertThat(assigner.assignAll(listener)).isEqualTo(5);
            // As after a restore into a cluster whose transaction ids are lower: the numbered rows, the last tick's
            // snapshot and the floors recorded with it all lie far ahead of every id the database will hand out.
            execute(listener, "UPDATE streams_outbox SET transaction_id = 8999999000 + id");
            execute(listener, "UPDATE streams_cursor_state SET last_snapshot = '9000000000:9000000000:'"
                    + " WHERE id = 1 AND set_config('streams.schema', '7', true) = '7'");
            execute(listener, "UPDATE streams_cursors SET floor = 9000000000");
            write(listener, 4);
            assertThat(assigner.assignAll(listener)).as("a tick alone would find none of them").isEqualTo(4);
            checkOneGapFreeOrder(9, 0);
            assertThat(OutboxReader.readSubjectBetween(listener, "it.Migrated", "1", 3, Long.MAX_VALUE, 100))
                    .as("one subject's rows after cursor 3, past the floors lowered").extracting(StreamEvent::cursor)
                    .containsExactly(7L);
            write(listener, 1);
            assertThat(assigner.assignAll(listener)).as("the restored rows are not taken for new ones").isOne();
            checkOneGapFreeOrder(10, 0);
            // A restored row whose transaction id the counter is about to reach: inside the next tick's range.
            execute(listener, "UPDATE streams_outbox SET transaction_id = txid_current() + 2"
                    + " WHERE id = (SELECT min(id) FROM streams_outbox)");
            write(listener, 3);
            assertThat(OutboxReader.progress(listener).backlogRows()).as("it is not backlog").isEqualTo(3);
            assertThat(assigner.assignAll(listener)).as("nor numbered again").isEqualTo(3);
            checkOneGapFreeOrder(13, 0);
        }
    }

    @Test
    void theSwitchWaitsUntilNoEarlierSessionHasBeenSeenForTheHold() throws Exception {
        SchemaMigrator.migrate(source("it-migrate"));
        try (Connection listener = source("it-new-listener").getConnection()) {
            CursorAssigner assigner = new CursorAssigner(1000, "it_cursors_by_tick", Duration.ofMillis(1500));
            write(listener, 3);
            assertThat(assigner.assignAll(listener)).isEqualTo(3);
            assertThat(snapshotRecorded()).as("no earlier session seen, but not for the hold yet").isFalse();
            Thread.sleep(1600);
            write(listener, 2);
            assertThat(assigner.assignAll(listener)).isEqualTo(2);
            assertThat(snapshotRecorded()).as("switched after the hold").isTrue();
            checkOneGapFreeOrder(5, 0);
        }
    }

    /**
     * {@code expected} rows have a cursor, 1..expected without a gap, none has two, {@code unnumbered} have none
     * yet, and the product's readers agree: the same cursors in order, and that backlog.
     */
    private static void checkOneGapFreeOrder(int expected, int unnumbered) throws Exception {
        Map<Long, Long> byCursor = numberedCursors();
        assertThat(count("SELECT count(*) FROM streams_outbox")).isEqualTo(expected + unnumbered);
        assertThat(byCursor).hasSize(expected);
        assertThat(byCursor.keySet()).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, expected).boxed().toList());
        assertThat(count("SELECT count(*) FROM (SELECT outbox_id FROM streams_cursors GROUP BY outbox_id"
                + " HAVING count(*) > 1) twice")).isZero();
        try (Connection c = source("it-read").getConnection()) {
            List<StreamEvent> events = OutboxReader.readAfter(c, 0, expected + 10);
            assertThat(events).extracting(StreamEvent::cursor).containsExactlyElementsOf(byCursor.keySet());
            assertThat(OutboxReader.progress(c).backlogRows()).isEqualTo(unnumbered);
        }
    }

    /** Cursor → outbox id, as this version reads them. */
    private static Map<Long, Long> numberedCursors() throws SQLException {
        return pairs("SELECT cursor, outbox_id FROM streams_cursors ORDER BY cursor");
    }

    /** Cursor → outbox id, as an earlier version reads them. */
    private static Map<Long, Long> columnCursors() throws SQLException {
        return pairs("SELECT cursor, id FROM streams_outbox WHERE cursor IS NOT NULL ORDER BY cursor");
    }

    private static Map<Long, Long> pairs(String query) throws SQLException {
        Map<Long, Long> pairs = new LinkedHashMap<>();
        try (Connection c = source("it-read").getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                pairs.put(rs.getLong(1), rs.getLong(2));
            }
        }
        return pairs;
    }

    /** One batch as the assigner of the version before V7 numbered it ({@link EarlierRelease}). */
    private static int legacyBatch(Connection connection, int batchSize) throws SQLException {
        return EarlierRelease.assignBatch(connection, batchSize);
    }

    private static boolean snapshotRecorded() throws SQLException {
        return count("SELECT count(*) FROM streams_cursor_state WHERE last_snapshot IS NOT NULL") == 1;
    }

    private static long rowsWithoutCursor() throws SQLException {
        return count("SELECT count(*) FROM streams_numbered WHERE cursor IS NULL");
    }

    /** Rows of one model, one subject per row cycling through five, each in its own statement. */
    private static void write(Connection connection, int rows) throws SQLException {
        for (int i = 0; i < rows; i++) {
            execute(connection, "INSERT INTO streams_outbox (model, subject_pk, op) VALUES ('it.Migrated', '"
                    + (i % 5) + "', 'updated')");
        }
    }

    private static void execute(Connection connection, String statement) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }

    private static PGSimpleDataSource source(String applicationName) {
        PGSimpleDataSource source = (PGSimpleDataSource) TestDatabase.dataSource();
        source.setCurrentSchema(SCHEMA);
        source.setApplicationName(applicationName);
        return source;
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static long count(String query) throws SQLException {
        try (Connection c = source("it-read").getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
