package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Trigger capture (G3) on a real server: writes made in SQL to a trigger-captured table give the rows the entity
 * listener gives for the same writes through JPA. Two twin entities share one mapping ({@code ItTwin}, captured by
 * the listener, and {@code ItTwinT}, by trigger), each with a part reported on it as facet {@code parts}; every step
 * is done to both, through JPA to the first and in SQL to the second, and the rows must match.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TriggerCaptureIT {

    private static final String LISTENER = "it.ItTwin";
    private static final String TRIGGER = "it.ItTwinT";

    /** One outbox row, as both paths must write it: the pk is the twin's number in the test, not its id. */
    record Event(String pk, String facet, String op, List<String> fields) {
    }

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    @Test
    void writesInSqlAreCapturedExactlyLikeTheSameWritesThroughJpa() throws Exception {
        // Created, then each attribute on its own: a renamed column, an embedded pair, a reference.
        long mark = lastCursor();
        long l1 = Long.parseLong(jpa("listener", "create?name=a&amount=1&street=s&city=c"));
        long l2 = Long.parseLong(jpa("listener", "create?name=b&amount=2&street=s&city=c"));
        long t1 = insertTwin("a", 1, "s", "c");
        long t2 = insertTwin("b", 2, "s", "c");
        assertSame(mark, List.of(l1, l2), List.of(t1, t2), List.of(
                new Event("0", "object", "created", List.of()), new Event("1", "object", "created", List.of())));

        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l1 + "/update?amount=5"),
                "UPDATE it_twin_t SET amount = 5 WHERE id = " + t1, new Event("0", "object", "updated", List.of("amount")));
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l1 + "/update?name=z"),
                "UPDATE it_twin_t SET title = 'z' WHERE id = " + t1, new Event("0", "object", "updated", List.of("name")));
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l1 + "/update?street=s2&city=c"),
                "UPDATE it_twin_t SET place_street = 's2' WHERE id = " + t1,
                new Event("0", "object", "updated", List.of("place")));
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l1 + "/update?partner=" + l2),
                "UPDATE it_twin_t SET partner_id = " + t2 + " WHERE id = " + t1,
                new Event("0", "object", "updated", List.of("partner")));
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l1 + "/update?amount=5&name=z"),
                "UPDATE it_twin_t SET amount = 5, title = 'z' WHERE id = " + t1);
        // Several attributes at once, in declaration order.
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", l2 + "/update?amount=7&name=y&street=q&city=r"),
                "UPDATE it_twin_t SET amount = 7, title = 'y', place_street = 'q', city = 'r' WHERE id = " + t2,
                new Event("1", "object", "updated", List.of("name", "amount", "place")));
        // A part, created, changed and removed: each an update of its twin's facet.
        long partMark = lastCursor();
        String lp = jpa("listener", l1 + "/part?label=p");
        long tp = insert("INSERT INTO it_twin_part_t (label, twin_id) VALUES ('p', " + t1 + ") RETURNING id");
        assertSame(partMark, List.of(l1, l2), List.of(t1, t2), List.of(new Event("0", "parts", "updated", List.of("parts"))));
        // A part that moves to another twin changes both (in the order the database gives, within one statement).
        step(List.of(l1, l2), List.of(t1, t2), () -> jpa("listener", "parts/" + lp + "/move?to=" + l2),
                "UPDATE it_twin_part_t SET twin_id = " + t2 + " WHERE id = " + tp,
                new Event("0", "parts", "updated", List.of("parts")), new Event("1", "parts", "updated", List.of("parts")));
        // A rollback writes nothing.
        long before = lastCursor();
        try (Connection c = TestDatabase.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE it_twin_t SET amount = 99 WHERE id = " + t1);
                s.executeUpdate("INSERT INTO it_twin_t (title) VALUES ('gone')");
            }
            c.rollback();
        }
        assertThat(rowsOf(TRIGGER, before)).isEmpty();
        // A transaction of several statements: its rows in statement order, one transaction id.
        long multi = lastCursor();
        long t3;
        try (Connection c = TestDatabase.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE it_twin_t SET amount = 8 WHERE id = " + t2);
                ResultSet rs = s.executeQuery("INSERT INTO it_twin_t (title, amount) VALUES ('c', 3) RETURNING id");
                rs.next();
                t3 = rs.getLong(1);
                s.executeUpdate("DELETE FROM it_twin_part_t WHERE id = " + tp);
            }
            c.commit();
        }
        List<Object[]> rows = rowsOf(TRIGGER, multi);
        assertThat(rows).extracting(r -> r[1] + " " + r[0] + " " + r[2] + " " + r[3]).containsExactly(
                "updated " + t2 + " object [amount]", "created " + t3 + " object []", "updated " + t2 + " parts [parts]");
        assertThat(rows).extracting(r -> r[4]).as("one transaction").containsOnly(rows.get(0)[4]);
        // A key that changes is a delete and a create; a delete is a delete; a write that changes nothing, nothing.
        long keys = lastCursor();
        sql("UPDATE it_twin_t SET id = 900000000 + id WHERE id = " + t3);
        sql("UPDATE it_twin_t SET amount = amount WHERE id = " + t2);
        sql("DELETE FROM it_twin_t WHERE id = " + (900000000 + t3));
        List<String> keyRows = rowsOf(TRIGGER, keys).stream().map(r -> r[1] + " " + r[0]).toList();
        assertThat(keyRows.subList(0, 2)).as("one statement: in the database's order")
                .containsExactlyInAnyOrder("deleted " + t3, "created " + (900000000 + t3));
        assertThat(keyRows.subList(2, keyRows.size())).containsExactly("deleted " + (900000000 + t3));
    }

    @Test
    void jpaWritesToATriggerCapturedEntityAreCapturedOnceWithTheirActorAndKeepTheirGeneratedIds() throws Exception {
        long mark = lastCursor();
        long id = Long.parseLong(jpa("trigger", "create?name=j&amount=1&street=s&city=c"));
        jpa("trigger", id + "/update?amount=2");
        assertThat(value("SELECT title FROM it_twin_t WHERE id = " + id))
                .as("the id JPA read back is the row's, though a trigger wrote the outbox (EclipseLink's lastval)").isEqualTo("j");
        List<Object[]> rows = rowsOf(TRIGGER, mark);
        assertThat(rows).extracting(r -> r[1] + " " + r[0] + " " + r[3]).containsExactly(
                "created " + id + " []", "updated " + id + " [amount]");
        assertThat(rows).extracting(r -> r[5]).as("actor").containsOnly("alice");
        assertThat(rows).extracting(r -> r[6]).as("correlation id").doesNotContainNull();
    }

    /**
     * Issue 40 item 1 (G16): a database restored from a dump into a new cluster, or moved by logical replication,
     * starts its transaction ids again near 1,000 while the outbox keeps the old rows; a move by logical replication
     * does not carry sequences either. The old rows here carry the ids the next transactions' trigger rows would
     * get under either numbering. An ordinary write must not fail on them, and no later transaction may tag or
     * delete them as its own.
     */
    @Test
    void aRestoredOutboxWhoseRowsHoldTheComingIdsNeitherFailsWritesNorIsTakenForTheirRows() throws Exception {
        long twin = insertTwin("restored", 1, null, null);
        long partTwin = insertTwin("restored-parts", 1, null, null);
        long restoredRows = restoreRowsAhead(2_000);

        // The trigger's rows, through JPA (tagged with the actor) and in SQL, a part included.
        long mark = lastCursor();
        jpa("trigger", twin + "/update?amount=2");
        sql("UPDATE it_twin_t SET amount = 3 WHERE id = " + twin);
        sql("INSERT INTO it_twin_part_t (label, twin_id) VALUES ('p', " + partTwin + ")");

        assertThat(rowsOf(TRIGGER, mark)).extracting(r -> r[1] + " " + r[0] + " " + r[2] + " " + r[5]).containsExactly(
                "updated " + twin + " object alice", "updated " + twin + " object null",
                "updated " + partTwin + " parts null");
        assertThat(value("SELECT count(*) FROM streams_numbered WHERE model = 'it.Restored'"))
                .as("no restored row deleted").isEqualTo(Long.toString(restoredRows));
        assertThat(value("SELECT count(*) FROM streams_numbered WHERE model = 'it.Restored' AND metadata <> '{}'::jsonb"))
                .as("no restored row tagged by a later transaction").isEqualTo("0");
    }

    /**
     * Writes old rows, as a restore would leave them, at the first two ids the next {@code transactions} trigger
     * batches would get, by transaction id and by the batch sequence where there is one; returns how many.
     */
    private static long restoreRowsAhead(int transactions) throws SQLException {
        long txid = Long.parseLong(value("SELECT txid_current()"));
        String batch = value("SELECT to_regclass('streams_trigger_batch')") == null ? null
                : value("SELECT last_value FROM streams_trigger_batch");
        String ahead = "SELECT ((s::bigint << 22) - 4611686018427387904) + k FROM generate_series(%d, %d) s, generate_series(1, 2) k";
        String ids = ahead.formatted(txid, txid + transactions);
        if (batch != null) {
            long next = Long.parseLong(batch);
            ids += " UNION " + ahead.formatted(next, next + transactions);
        }
        sql("INSERT INTO streams_outbox (id, model, subject_pk, op) OVERRIDING SYSTEM VALUE"
                + " SELECT i, 'it.Restored', 'x', 'updated' FROM (" + ids + ") a(i) ON CONFLICT DO NOTHING");
        return Long.parseLong(value("SELECT count(*) FROM streams_numbered WHERE model = 'it.Restored'"));
    }

    /**
     * Issue 40 item 7: {@code IS DISTINCT FROM} uses the type's equality, under which a case-only edit of a
     * {@code citext} or case-insensitively collated column, or {@code '1 day'} made {@code '24 hours'}, is no
     * change; the entity listener reports each, and so must the trigger.
     */
    @Test
    void aChangeThatTheTypesEqualityCannotSeeIsStillReported() throws Exception {
        sql("INSERT INTO it_label_t (id, name, span, title) VALUES (1, 'Ann', '1 day', 'Ann')"
                + " ON CONFLICT (id) DO UPDATE SET name = 'Ann', span = '1 day', title = 'Ann'");
        long mark = lastCursor();
        sql("UPDATE it_label_t SET name = 'ann' WHERE id = 1");
        sql("UPDATE it_label_t SET span = '24 hours' WHERE id = 1");
        sql("UPDATE it_label_t SET title = 'ANN' WHERE id = 1");
        sql("UPDATE it_label_t SET name = 'ann', span = '24 hours', title = 'ANN' WHERE id = 1");

        assertThat(rowsOf("it.ItLabelT", mark)).extracting(r -> r[1] + " " + r[0] + " " + r[3]).containsExactly(
                "updated 1 [name]", "updated 1 [span]", "updated 1 [title]");
    }

    /**
     * Issue 40 item 6 (G16): statement triggers fire only for the table a statement names, so a write naming a
     * partition or an inheritance child of a trigger-captured table went uncaptured, and nothing noticed. Each
     * descendant gets capture triggers of its own, and one created while the application runs is followed by the
     * check (every second in this suite).
     */
    @Test
    void writesNamingAPartitionOrAnInheritanceChildAreCapturedAndANewOneIsFollowed() throws Exception {
        long first = Long.parseLong(value("SELECT coalesce(max(id), 0) + 1 FROM it_activity_t WHERE id < 1000000"));
        long mark = lastCursor();
        sql("INSERT INTO it_activity_t (id, note) VALUES (" + first + ", 'through the parent')");
        sql("INSERT INTO it_activity_t_low (id, note) VALUES (" + (first + 1) + ", 'naming the partition')");
        sql("UPDATE it_activity_t_low SET note = 'edited' WHERE id = " + (first + 1));

        sql("CREATE TABLE IF NOT EXISTS it_activity_t_high PARTITION OF it_activity_t"
                + " FOR VALUES FROM (1000000) TO (2000000)");
        awaitCaptureTriggers("it_activity_t_high");
        long high = Long.parseLong(value("SELECT coalesce(max(id), 999999) + 1 FROM it_activity_t_high"));
        sql("INSERT INTO it_activity_t_high (id, note) VALUES (" + high + ", 'a partition attached later')");

        sql("CREATE TABLE IF NOT EXISTS it_twin_t_kid () INHERITS (it_twin_t)");
        awaitCaptureTriggers("it_twin_t_kid");
        // A child table inherits the columns, not the identity: its ids are drawn from the parent's sequence here.
        long kid = insert("INSERT INTO it_twin_t_kid (id, title, amount) VALUES"
                + " (nextval(pg_get_serial_sequence('it_twin_t', 'id')), 'kid', 1) RETURNING id");

        assertThat(rowsOf("it.ItActivityT", mark)).extracting(r -> r[1] + " " + r[0] + " " + r[3]).containsExactly(
                "created " + first + " []", "created " + (first + 1) + " []", "updated " + (first + 1) + " [note]",
                "created " + high + " []");
        assertThat(rowsOf(TRIGGER, mark)).extracting(r -> r[1] + " " + r[0]).contains("created " + kid);
        awaitReady(true, null);
    }

    private static void awaitCaptureTriggers(String table) {
        await("capture triggers on " + table).atMost(Duration.ofSeconds(30)).until(() -> "5".equals(value(
                "SELECT count(*) FROM pg_trigger WHERE tgrelid = to_regclass('" + table + "')"
                        + " AND tgname LIKE 'streams\\_capture\\_%'")));
    }

    @Test
    void bulkStatementsWriteOneInsertEachAndAPartsStatementOneRowPerSubject() throws Exception {
        long twin = insertTwin("bulk", 0, null, null);
        sql("INSERT INTO it_twin_part_t (label, twin_id) SELECT 'l' || g, " + twin + " FROM generate_series(1, 10000) g");
        long mark = lastCursor();
        sql("UPDATE it_twin_part_t SET label = label || '!' WHERE twin_id = " + twin);
        assertThat(rowsOf(TRIGGER, mark)).extracting(r -> r[1] + " " + r[0] + " " + r[2])
                .as("10,000 lines of one twin in one statement: one event for it").containsExactly("updated " + twin + " parts");

        sql("INSERT INTO it_twin_t (title, amount) SELECT 'bulk', g FROM generate_series(1, 10000) g");
        mark = lastCursor();
        sql("UPDATE it_twin_t SET amount = amount + 1 WHERE title = 'bulk' AND id <> " + twin);
        List<Object[]> rows = rowsOf(TRIGGER, mark);
        assertThat(rows).hasSize(10_000);
        assertThat(rows).allSatisfy(r -> assertThat(r[1] + " " + r[3]).isEqualTo("updated [amount]"));
        assertThat(rows.stream().map(r -> r[0]).distinct()).hasSize(10_000);

        mark = lastCursor();
        sql("DELETE FROM it_twin_part_t WHERE twin_id = " + twin);
        sql("DELETE FROM it_twin_t WHERE title = 'bulk'");
        assertThat(rowsOf(TRIGGER, mark)).as("the lines' delete, then 10,001 twins' deletes").hasSize(10_002);
    }

    @Test
    void aCompositeKeyIsAJsonArrayOfItsColumnsInDeclaredOrder() throws Exception {
        long mark = lastCursor();
        sql("INSERT INTO it_keyed (region, number, note) VALUES ('eu', 7, 'x')");
        sql("UPDATE it_keyed SET note = 'y' WHERE region = 'eu' AND number = 7");
        List<Object[]> rows = rowsOf("it.ItKeyed", mark);
        assertThat(rows).extracting(r -> r[1] + " " + r[0] + " " + r[3])
                .containsExactly("created [\"eu\", 7] []", "updated [\"eu\", 7] [note]");
        sql("DELETE FROM it_keyed");
    }

    @Test
    void aTransactionThatStartedFirstButWroteAfterAnotherCommittedIsOrderedAfterIt() throws Exception {
        // The assigner is held on the cursor state row, so both transactions commit before either is numbered
        // and one claim takes them together: it must number them as they happened, not as they began (G5).
        long mark = lastCursor();
        try (Connection hold = TestDatabase.connect(); Connection early = TestDatabase.connect()) {
            hold.setAutoCommit(false);
            try (Statement s = hold.createStatement()) {
                s.executeQuery("SELECT last_cursor FROM streams_cursor_state WHERE id = 1 FOR UPDATE").close();
            }
            early.setAutoCommit(false);
            long first;
            try (Statement s = early.createStatement(); ResultSet rs = s.executeQuery(
                    "INSERT INTO it_twin_t (title) VALUES ('began first') RETURNING id")) {
                rs.next();
                first = rs.getLong(1);
            }
            long late = insertTwin("committed first", 1, null, null);
            try (Statement s = early.createStatement()) {
                s.executeUpdate("DELETE FROM it_twin_t WHERE id = " + late);
            }
            early.commit();
            hold.rollback();
            assertThat(rowsOf(TRIGGER, mark)).extracting(r -> r[1] + " " + r[0]).as("in cursor order").containsExactly(
                    "created " + first, "created " + late, "deleted " + late);
        }
    }

    @Test
    void aWriteInSqlReachesASubscriberLive() throws Exception {
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + TRIGGER
                    + "\"}").next();
            assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
            long id = insertTwin("live", 1, null, null);
            JsonObject event = alice.next();
            assertThat(event.getString("type")).isEqualTo("event");
            assertThat(event.getString("op")).isEqualTo("created");
            assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(id));
            sql("UPDATE it_twin_t SET amount = 2 WHERE id = " + id);
            JsonObject update = alice.next();
            assertThat(update.getString("op")).isEqualTo("updated");
            assertThat(update.getJsonArray("changed_fields").getString(0)).isEqualTo("amount");
        }
    }

    @Test
    void aTruncateResyncsEverySubscriptionOfTheModelLiveAndOnReplay() throws Exception {
        long twin = insertTwin("kept", 1, null, null);
        long before = lastCursor();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + TRIGGER + "\",\"subscription_id\":\"all\"}");
            assertThat(alice.next().getString("type")).isEqualTo("subscribed");
            alice.send("{\"op\":\"subscribe\",\"model\":\"" + TRIGGER + "\",\"pk\":\"" + twin + "\",\"subscription_id\":\"one\"}");
            assertThat(alice.next().getString("type")).isEqualTo("subscribed");
            sql("TRUNCATE it_twin_t");
            List<JsonObject> told = List.of(alice.next(), alice.next());
            assertThat(told).allSatisfy(m -> {
                assertThat(m.getString("type")).isEqualTo("resync_required");
                assertThat(m.getString("reason")).isEqualTo("truncated");
            });
            assertThat(told).extracting(m -> m.getString("subscription_id")).containsExactlyInAnyOrder("all", "one");
        }
        // A client coming back with a cursor from before the truncation is told so too, on either kind (the object
        // is written again, so that it exists to subscribe to).
        sql("INSERT INTO it_twin_t (id, title) VALUES (" + twin + ", 'back')");
        // Fanned out before bob subscribes: his resumed model subscription would otherwise get its creation live, ahead
        // of the object subscription's reply (seen on WildFly in CI, 2026-12-05).
        Outbox.awaitFannedOut(base);
        try (StreamClient bob = StreamClient.connect(base, "bob")) {
            bob.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + TRIGGER + "\",\"cursor\":" + before + "}");
            assertThat(bob.next().getString("type")).isEqualTo("subscribed");
            JsonObject resync = bob.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("reason")).isEqualTo("truncated");
            bob.send("{\"op\":\"subscribe\",\"model\":\"" + TRIGGER + "\",\"pk\":\"" + twin + "\",\"cursor\":" + before
                    + ",\"subscription_id\":\"one\"}");
            assertThat(bob.next().getString("type")).isEqualTo("subscribed");
            JsonObject objectResync = bob.next();
            assertThat(objectResync.getString("type")).isEqualTo("resync_required");
            assertThat(objectResync.getString("reason")).isEqualTo("truncated");
        }
    }

    @Test
    void aTriggerDroppedOrAColumnGoneMakesReadinessDownNamingTheTableAndRepairingItBringsItBack() throws Exception {
        URL server = base;
        awaitReady(true, null);
        // Nothing writes it_drift; the trigger is dropped and reinstalled as a DBA would.
        sql("DROP TRIGGER streams_capture_update ON it_drift");
        String problem = awaitReady(false, "it_drift");
        assertThat(problem).contains("streams_capture_update").contains("capture.sql");
        StoreClient.Reply script = StoreClient.as("carol", server).get("streams/admin/capture.sql");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.raw()).contains("CREATE TRIGGER \"streams_capture_update\"");
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(script.raw());
        }
        awaitReady(true, null);

        sql("ALTER TABLE it_drift DROP COLUMN note");
        assertThat(awaitReady(false, "it_drift")).contains("note");
        sql("ALTER TABLE it_drift ADD COLUMN note varchar(100)");
        awaitReady(true, null);

        // Enabled for replica sessions only, it never fires for the application's.
        sql("ALTER TABLE it_drift ENABLE REPLICA TRIGGER streams_capture_delete");
        assertThat(awaitReady(false, "it_drift")).contains("ENABLE REPLICA").contains("streams_capture_delete");
        sql("ALTER TABLE it_drift ENABLE TRIGGER streams_capture_delete");
        awaitReady(true, null);
    }

    @Test
    void aTriggerOfAnotherVersionsMappingIsAWarningForAGracePeriodAndOneOnAListenerCapturedTableAlways() throws Exception {
        // As while two versions run side by side: the other one installed its mapping. Writes are captured, so
        // every instance stays ready (readiness DOWN on all of them at once would be an outage), and says so.
        String comment = value("SELECT obj_description(oid, 'pg_trigger') FROM pg_trigger WHERE tgname ="
                + " 'streams_capture_insert' AND tgrelid = 'it_drift'::regclass");
        sql("COMMENT ON TRIGGER streams_capture_insert ON it_drift IS 'object-streams capture 0123456789abcdef'");
        try {
            String warnings = awaitWarning("0123456789abcdef");
            assertThat(warnings).contains("it_drift").contains("another mapping").contains("capture.sql");
            // It must not last: past streams.capture.outdated-grace (4 s in this suite) readiness is DOWN.
            assertThat(awaitReady(false, "it_drift")).contains("0123456789abcdef").contains("outdated-grace");
        } finally {
            sql("COMMENT ON TRIGGER streams_capture_insert ON it_drift IS '" + comment + "'");
        }
        awaitReady(true, null);
        awaitWarning(null);

        // A capture trigger on the listener's twin's table: its writes are captured twice, none is lost.
        sql("CREATE OR REPLACE FUNCTION it_nothing() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$");
        sql("CREATE TRIGGER streams_capture_stray AFTER TRUNCATE ON it_twin FOR EACH STATEMENT"
                + " EXECUTE FUNCTION it_nothing()");
        try {
            assertThat(awaitWarning("streams_capture_stray")).contains("it_twin").contains("captured twice");
        } finally {
            sql("DROP TRIGGER streams_capture_stray ON it_twin");
        }
        awaitWarning(null);
    }

    // --- helpers ---

    /** Awaits readiness UP or DOWN; when DOWN, that its capture problems mention {@code table}; returns them. */
    private String awaitReady(boolean up, String table) {
        return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Health.Check check = Health.listener(Health.root(base), "ready");
            String problems = check.data().containsKey("captureProblems") ? check.data().getString("captureProblems") : "";
            boolean matches = up ? check.up() && problems.isEmpty() : !check.up() && problems.contains(table);
            return matches ? problems : null;
        }, r -> r != null);
    }

    /**
     * Awaits readiness UP with capture warnings containing {@code text} (or with none, for null); returns them.
     */
    private String awaitWarning(String text) {
        return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Health.Check check = Health.listener(Health.root(base), "ready");
            String warnings = check.data().containsKey("captureWarnings") ? check.data().getString("captureWarnings") : "";
            boolean matches = check.up() && (text == null ? warnings.isEmpty() : warnings.contains(text));
            return matches ? warnings : null;
        }, r -> r != null);
    }

    private void step(List<Long> listenerTwins, List<Long> triggerTwins, ThrowingRunnable jpaWrite, String sqlWrite,
                      Event... expected) throws Exception {
        long mark = lastCursor();
        jpaWrite.run();
        sql(sqlWrite);
        assertSame(mark, listenerTwins, triggerTwins, List.of(expected));
    }

    /**
     * Both paths' rows since {@code mark}, each pk replaced by its twin's number, equal {@code expected}: in order
     * across statements, in any order within one (the order of a statement's rows is the database's).
     */
    private void assertSame(long mark, List<Long> listenerTwins, List<Long> triggerTwins, List<Event> expected)
            throws SQLException {
        assertThat(events(rowsOf(LISTENER, mark), listenerTwins)).as("through JPA, captured by the listener")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(events(rowsOf(TRIGGER, mark), triggerTwins)).as("in SQL, captured by trigger")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static List<Event> events(List<Object[]> rows, List<Long> twins) {
        List<Event> events = new ArrayList<>();
        for (Object[] row : rows) {
            int n = twins.indexOf(Long.valueOf((String) row[0]));
            @SuppressWarnings("unchecked")
            List<String> fields = (List<String>) row[3];
            events.add(new Event(n < 0 ? (String) row[0] : Integer.toString(n), (String) row[2], (String) row[1], fields));
        }
        return events;
    }

    private String jpa(String kind, String call) {
        StoreClient.Reply reply = StoreClient.as("alice", base).post("api/it/twins/" + kind + "/" + call, null);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        return reply.body().asJsonObject().getString("result");
    }

    private static long insertTwin(String name, int amount, String street, String city) throws SQLException {
        return insert("INSERT INTO it_twin_t (title, amount, place_street, city) VALUES ("
                + "'" + name + "', " + amount + ", " + quoted(street) + ", " + quoted(city) + ") RETURNING id");
    }

    private static String quoted(String text) {
        return text == null ? "NULL" : "'" + text + "'";
    }

    private static long insert(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String sql(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
        return "ok";
    }

    private static String value(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private long lastCursor() throws SQLException {
        Outbox.awaitAssigned(base);
        return Long.parseLong(value("SELECT coalesce(max(cursor), 0) FROM streams_numbered"));
    }

    /** The model's rows after {@code mark} once assigned, in cursor order: pk, op, facet, fields, transaction, actor, correlation. */
    private List<Object[]> rowsOf(String model, long mark) throws SQLException {
        Outbox.awaitAssigned(base);
        String sql = "SELECT subject_pk, op, facet, changed_fields, transaction_id, metadata->>'actor',"
                + " metadata->>'correlation_id' FROM streams_numbered WHERE model = ? AND cursor > ? ORDER BY cursor";
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, model);
            s.setLong(2, mark);
            List<Object[]> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Array fields = rs.getArray(4);
                    rows.add(new Object[] {rs.getString(1), rs.getString(2), rs.getString(3),
                            Arrays.asList((String[]) fields.getArray()),
                            rs.getLong(5), rs.getString(6), rs.getString(7)});
                }
            }
            return rows;
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
