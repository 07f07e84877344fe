package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Notifications;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.Outbox.Row;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StoreClient.Reply;
import io.objectstreams.it.support.TestDatabase;
import static org.awaitility.Awaitility.await;

import java.net.URL;
import java.time.Duration;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * G1–G4 on a real server: what a committed, rolled back or coalesced transaction leaves in the outbox, and
 * what it costs. Runs twice in the build: with a plain and with an XA application datasource.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CaptureIT {

    private static final String MODEL = "store.CustomerOrder";
    private static final String CHANNEL = "object_streams_events";
    private static final String ORDER = """
            {"status":"draft","total":10.00,"note":"first","lines":[{"product":"tea","quantity":2,"unitPrice":5.00}]}""";

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    private StoreClient alice() {
        return StoreClient.as("alice", base);
    }

    private long createOrder() {
        return alice().createOrder(ORDER);
    }

    private Reply scenario(String name) {
        return alice().post("api/it/capture/" + name, null);
    }

    @Test
    void committedCreateRecordsOneCreatedRowWithTransactionAndActor() {
        long mark = Outbox.mark();
        long id = createOrder();

        List<Row> rows = Outbox.since(mark);
        assertThat(rows).hasSize(1);
        Row row = rows.get(0);
        assertThat(row.model()).isEqualTo(MODEL);
        assertThat(row.pk()).isEqualTo(Long.toString(id));
        assertThat(row.facet()).isEqualTo("object");
        assertThat(row.op()).isEqualTo("created");
        assertThat(row.changedFields()).isEmpty();
        assertThat(row.transactionId()).isPositive();
        assertThat(row.actor()).isEqualTo("alice");
        assertThat(row.correlationId()).isNotBlank();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(Outbox.since(mark).get(0).cursor()).as("the listener assigns a cursor after commit").isNotNull());
    }

    @Test
    void theOutboxRowIsWrittenInTheBusinessTransactionItself() throws Exception {
        long id = createOrder();
        long mark = Outbox.mark();

        alice().patch("api/orders/" + id, "{\"status\":\"paid\"}");

        List<Row> rows = Outbox.since(mark);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).transactionId() % (1L << 32)).as("outbox row and order row in one transaction (G1)")
                .isEqualTo(lastWriterOf("store_order", id));
    }

    @Test
    void anEventPublishedWithAnEntityWriteCommitsWithIt() throws Exception {
        assertPublishedNoteChangeCommitsWithTheNote("publish-note-change");
    }

    @Test
    void anEventPublishedAfterANativeQueryCommitsWithIt() throws Exception {
        assertPublishedNoteChangeCommitsWithTheNote("publish-after-native-update");
    }

    /** Runs a scenario that changes a note and publishes it, and compares the row's transaction with the note's. */
    private void assertPublishedNoteChangeCommitsWithTheNote(String scenario) throws Exception {
        long note = Long.parseLong(scenario("non-streamed").object().getString("result"));
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/" + scenario + "?id=" + note, null).status()).isEqualTo(200);

        List<Row> rows = Outbox.since(mark);
        assertThat(rows).extracting(Row::pk).containsExactly(Long.toString(note));
        assertThat(rows.get(0).transactionId() % (1L << 32)).isEqualTo(lastWriterOf("it_note", note));
    }

    @Test
    void anEntityChangedAfterAPublishInTheSameTransactionIsCapturedToo() throws Exception {
        // The publish registers our synchronization before the entity manager is first used, so on a provider
        // that flushes from its own synchronization the entity change is recorded after ours has run (G1).
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/publish-then-update?id=" + id, null).status()).isEqualTo(200);

        List<Row> rows = Outbox.since(mark);
        assertThat(rows).extracting(Row::model, Row::pk)
                .containsExactlyInAnyOrder(tuple("ItNote", "0"), tuple(MODEL, Long.toString(id)));
        long writer = lastWriterOf("store_order", id);
        assertThat(rows).allSatisfy(row -> assertThat(row.transactionId() % (1L << 32))
                .as("both rows in the order's transaction").isEqualTo(writer));
    }

    @Test
    void anEventPublishedAfterAPlainJdbcWriteCommitsWithItOrNotAtAll() throws Exception {
        long mark = Outbox.mark();

        Reply reply = scenario("publish-after-jdbc-write");

        if (Deployments.server().startsWith("payara")) {
            // Payara gives no connection known to be in the transaction while it completes, and EclipseLink wrote
            // nothing to write through: the transaction is refused whole
            // (docs/capture.md, "How the rows join the transaction").
            // Refused every time: once it committed the note and lost the event (a full suite on Payara Micro 7,
            // 2026-12-06), once it committed both, depending on which connection Payara handed out.
            assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
            assertThat(reply.object().getString("code")).isEqualTo("outbox_write_failed");
            assertThat(Outbox.since(mark)).isEmpty();
            assertThat(countOf("SELECT count(*) FROM it_note WHERE text = 'written with JDBC'"))
                    .as("the note was rolled back with its event").isZero();
            return;
        }
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        long note = Long.parseLong(reply.object().getString("result"));
        List<Row> rows = Outbox.since(mark);
        assertThat(rows).extracting(Row::pk).containsExactly(Long.toString(note));
        assertThat(rows.get(0).op()).isEqualTo("created");
        assertThat(rows.get(0).transactionId() % (1L << 32)).isEqualTo(lastWriterOf("it_note", note));
    }

    @Test
    void aCommitTheDatabaseRefusesLeavesNoOutboxRow() throws Exception {
        // A deferred constraint trigger fails at COMMIT itself, after every beforeCompletion has run: the last
        // moment at which an outbox row written apart from the data would survive as a phantom.
        TestDatabase.execute(
                "CREATE OR REPLACE FUNCTION it_refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " IF NEW.note = 'refused at commit' THEN RAISE EXCEPTION 'it: refused at commit'; END IF;"
                        + " RETURN NULL; END $$",
                "DROP TRIGGER IF EXISTS it_refuse_at_commit ON store_order",
                "CREATE CONSTRAINT TRIGGER it_refuse_at_commit AFTER UPDATE ON store_order"
                        + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION it_refuse_at_commit()");
        try {
            long id = createOrder();
            long mark = Outbox.mark();

            Reply refused = alice().patch("api/orders/" + id, "{\"note\":\"refused at commit\"}");

            assertThat(refused.status()).as("the commit failed").isGreaterThanOrEqualTo(400);
            assertThat(Outbox.since(mark)).as("no phantom row for a change that never committed").isEmpty();
            assertThat(alice().patch("api/orders/" + id, "{\"note\":\"accepted\"}").status()).isEqualTo(200);
            assertThat(Outbox.since(mark)).extracting(Row::changedFields).containsExactly(List.of("note"));
        } finally {
            TestDatabase.execute("DROP TRIGGER IF EXISTS it_refuse_at_commit ON store_order",
                    "DROP FUNCTION IF EXISTS it_refuse_at_commit()");
        }
    }

    private static long countOf(String query) throws Exception {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The transaction that last wrote a row, as its {@code xmin}: the low 32 bits of a full transaction id. */
    private static long lastWriterOf(String table, long id) throws Exception {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT xmin::text::bigint FROM " + table + " WHERE id = " + id)) {
            assertThat(rs.next()).as(table + " row " + id).isTrue();
            return rs.getLong(1);
        }
    }

    @Test
    void committedUpdateNamesTheChangedAttributes() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().patch("api/orders/" + id, "{\"status\":\"open\",\"note\":\"changed\",\"total\":10.0}").status())
                .isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("updated");
            assertThat(row.pk()).isEqualTo(Long.toString(id));
            assertThat(row.facet()).isEqualTo("object");
            assertThat(row.changedFields()).as("10.0 equals 10.00: not a change").containsExactly("status", "note");
            assertThat(row.actor()).isEqualTo("alice");
        });
    }

    @Test
    void committedDeleteRecordsOneDeletedRowEvenWithCascadedLines() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().delete("api/orders/" + id).status()).isEqualTo(204);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("deleted");
            assertThat(row.pk()).isEqualTo(Long.toString(id));
            assertThat(row.facet()).isEqualTo("object");
            assertThat(row.changedFields()).isEmpty();
        });
    }

    @Test
    void exceptionAfterFlushRollsBackLeavingNoRowAndNoWakeup() throws Exception {
        long mark = Outbox.mark();
        try (Notifications wakeups = Notifications.listen(CHANNEL)) {
            Reply reply = scenario("create-then-fail");

            assertThat(reply.status()).isEqualTo(409);
            assertThat(reply.object().getString("failed")).isEqualTo("ScenarioFailure");
            assertThat(wakeups.countFor(1500)).isZero();
        }
        assertThat(Outbox.since(mark)).isEmpty();
    }

    @Test
    void changeFlushedOnlyAtCommitIsCaptured() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/update-at-commit?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("updated");
            assertThat(row.changedFields()).containsExactly("note");
        });
    }

    @Test
    void cascadedLineIsReportedOnItsOrderAsTheLinesFacet() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/add-line?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.model()).isEqualTo(MODEL);
            assertThat(row.pk()).isEqualTo(Long.toString(id));
            assertThat(row.facet()).isEqualTo("lines");
            assertThat(row.op()).isEqualTo("updated");
            assertThat(row.changedFields()).containsExactly("lines");
        });
    }

    @Test
    void orphanRemovalIsReportedOnItsOrder() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/remove-line?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.pk()).isEqualTo(Long.toString(id));
            assertThat(row.facet()).isEqualTo("lines");
            assertThat(row.op()).isEqualTo("updated");
        });
        assertThat(alice().get("api/orders/" + id).object().getJsonArray("lines")).isEmpty();
    }

    // Issue 40 item 2: the helper nulls the part's subject before orphan removal deletes it; capture_failed before.
    @Test
    void aPartRemovedThroughTheBidirectionalHelperIsReportedOnTheSubjectItLeft() {
        long[] ids = twinsWithPart();
        long mark = Outbox.mark();

        Reply reply = scenario("remove-part-with-helper?id=" + ids[0]);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(Outbox.since(mark)).extracting(Row::model, Row::pk, Row::facet, Row::op)
                .containsExactly(tuple("it.ItTwin", Long.toString(ids[0]), "parts", "updated"));
    }

    @Test
    void aPartDetachedFromItsSubjectIsReportedOnTheSubjectItLeft() {
        long[] ids = twinsWithPart();
        long mark = Outbox.mark();

        Reply reply = scenario("detach-part?id=" + ids[2]);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(Outbox.since(mark)).extracting(Row::model, Row::pk, Row::facet, Row::op)
                .containsExactly(tuple("it.ItTwin", Long.toString(ids[0]), "parts", "updated"));
    }

    @Test
    void aPartMovedThenRemovedInOneFlushIsReportedOnBothSubjects() {
        long[] ids = twinsWithPart();
        long mark = Outbox.mark();

        Reply reply = scenario("move-part-then-remove?id=" + ids[2] + "&to=" + ids[1]);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(Outbox.since(mark)).extracting(Row::model, Row::pk, Row::facet, Row::op).containsExactlyInAnyOrder(
                tuple("it.ItTwin", Long.toString(ids[0]), "parts", "updated"),
                tuple("it.ItTwin", Long.toString(ids[1]), "parts", "updated"));
    }

    @Test
    void aPartMovedInALaterTransactionOfAnExtendedContextIsReportedOnBothSubjects() {
        long[] ids = twinsWithPart();
        long mark = Outbox.mark();

        Reply reply = scenario("move-part-extended?id=" + ids[2] + "&to=" + ids[1]);

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(Outbox.since(mark)).extracting(Row::model, Row::pk, Row::facet, Row::op).containsExactlyInAnyOrder(
                tuple("it.ItTwin", Long.toString(ids[0]), "parts", "updated"),
                tuple("it.ItTwin", Long.toString(ids[1]), "parts", "updated"));
    }

    /** Twin, other twin, and a part of the first. */
    private long[] twinsWithPart() {
        Reply reply = scenario("twins-with-part");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        String[] ids = reply.object().getString("result").split(",");
        return new long[] {Long.parseLong(ids[0]), Long.parseLong(ids[1]), Long.parseLong(ids[2])};
    }

    @Test
    void replacingAnOrderAndItsLinesCoalescesIntoOneRowPerFacet() {
        long id = createOrder();
        long mark = Outbox.mark();

        Reply reply = alice().put("api/orders/" + id,
                "{\"status\":\"open\",\"total\":12.00,\"lines\":[{\"product\":\"cake\",\"quantity\":1,\"unitPrice\":12.00}]}");
        assertThat(reply.status()).isEqualTo(200);

        // The order of the two rows follows the provider's flush order; the contract is one row per facet.
        assertThat(Outbox.since(mark)).extracting(Row::facet, Row::op, Row::changedFields).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("object", "updated", List.of("status", "total", "note")),
                org.assertj.core.groups.Tuple.tuple("lines", "updated", List.of("lines")));
    }

    @Test
    void createThenUpdateInOneTransactionIsOneCreatedRow() {
        long mark = Outbox.mark();

        Reply reply = scenario("create-then-update");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("created");
            assertThat(row.pk()).isEqualTo(reply.object().getString("result"));
        });
    }

    @Test
    void updateThenUpdateInOneTransactionIsOneUpdatedRowWithTheUnionOfFields() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/update-twice?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("updated");
            assertThat(row.changedFields()).containsExactly("status", "note");
        });
    }

    @Test
    void updateThenDeleteInOneTransactionIsOneDeletedRow() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/update-then-delete?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo("deleted");
            assertThat(row.pk()).isEqualTo(Long.toString(id));
        });
    }

    @Test
    void createThenDeleteInOneTransactionLeavesNothing() throws Exception {
        long mark = Outbox.mark();
        try (Notifications wakeups = Notifications.listen(CHANNEL)) {
            assertThat(scenario("create-then-delete").status()).isEqualTo(200);
            assertThat(wakeups.countFor(1000)).as("no row, so nothing to wake up for").isZero();
        }
        assertThat(Outbox.since(mark)).isEmpty();
    }

    @Test
    void writingTheValuesAnAttributeAlreadyHasIsNoChange() {
        long id = createOrder();
        long mark = Outbox.mark();

        assertThat(alice().post("api/it/capture/rewrite-same?id=" + id, null).status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).isEmpty();
    }

    @Test
    void entityWithoutStreamedProducesNothing() {
        long mark = Outbox.mark();

        assertThat(scenario("non-streamed").status()).isEqualTo(200);

        assertThat(Outbox.since(mark)).isEmpty();
    }

    @Test
    void hundredRowTransactionCostsOneInsertStatementAndOneWakeup() throws Exception {
        TestDatabase.execute(
                "CREATE TABLE IF NOT EXISTS it_outbox_statements (transaction_id bigint NOT NULL)",
                "CREATE OR REPLACE FUNCTION it_count_outbox_statement() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$ BEGIN INSERT INTO it_outbox_statements VALUES (txid_current()); RETURN NULL; END $$",
                "DROP TRIGGER IF EXISTS it_count_outbox_statement ON streams_outbox",
                "CREATE TRIGGER it_count_outbox_statement AFTER INSERT ON streams_outbox"
                        + " FOR EACH STATEMENT EXECUTE FUNCTION it_count_outbox_statement()");
        try {
            long mark = Outbox.mark();
            int wakeupCount;
            try (Notifications wakeups = Notifications.listen(CHANNEL)) {
                assertThat(alice().post("api/it/capture/update-many?count=100", null).status()).isEqualTo(200);
                wakeupCount = wakeups.countFor(1500);
            }

            List<Row> rows = Outbox.since(mark);
            // Two transactions: one creates the 100 orders, the next updates all of them.
            assertThat(rows).hasSize(200);
            assertThat(rows.stream().map(Row::transactionId).distinct()).hasSize(2);
            assertThat(rows.subList(100, 200)).allSatisfy(row -> {
                assertThat(row.op()).isEqualTo("updated");
                assertThat(row.changedFields()).containsExactly("note");
            });
            assertThat(insertStatementsPerTransaction()).containsOnly(1L);
            assertThat(wakeupCount).as("wakeups for two commits, coalesced or not, never one per row")
                    .isBetween(1, 2);
        } finally {
            TestDatabase.execute("DROP TRIGGER IF EXISTS it_count_outbox_statement ON streams_outbox",
                    "DROP TABLE IF EXISTS it_outbox_statements");
        }
    }

    @Test
    void bulkStatusRecordsOneRowPerAffectedOrder() {
        StoreClient bob = StoreClient.as("bob", base);
        // Other test classes share the database: first clear bob's shipped orders out of the way.
        bob.post("api/orders/bulk-status", "{\"from\":\"shipped\",\"to\":\"paid\"}");
        long first = bob.createOrder("{\"status\":\"shipped\",\"total\":1}");
        long second = bob.createOrder("{\"status\":\"shipped\",\"total\":2}");
        long paid = bob.createOrder("{\"status\":\"paid\",\"total\":3}");
        long alices = alice().createOrder("{\"status\":\"shipped\",\"total\":4}");
        long mark = Outbox.mark();

        Reply reply = bob.post("api/orders/bulk-status", "{\"from\":\"shipped\",\"to\":\"cancelled\"}");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.object().getInt("updated")).isEqualTo(2);
        List<Row> rows = Outbox.since(mark);
        assertThat(rows).extracting(Row::pk).containsExactly(Long.toString(first), Long.toString(second))
                .doesNotContain(Long.toString(paid), Long.toString(alices));
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.op()).isEqualTo("updated");
            assertThat(row.changedFields()).containsExactly("status");
            assertThat(row.actor()).isEqualTo("bob");
        });
        assertThat(rows.stream().map(Row::transactionId).distinct()).hasSize(1);
    }

    @Test
    void publishingOutsideATransactionIsRefusedWithANamedError() {
        long mark = Outbox.mark();

        Reply reply = scenario("publish-without-transaction");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.object().getString("code")).isEqualTo("no_transaction");
        assertThat(Outbox.since(mark)).isEmpty();
        assertThat(alice().get("api/orders").status()).as("the server keeps working").isEqualTo(200);
    }

    private static List<Long> insertStatementsPerTransaction() throws Exception {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM it_outbox_statements GROUP BY transaction_id")) {
            List<Long> counts = new java.util.ArrayList<>();
            while (rs.next()) {
                counts.add(rs.getLong(1));
            }
            return counts;
        }
    }
}
