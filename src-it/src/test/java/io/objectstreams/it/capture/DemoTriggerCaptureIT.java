package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo as it ships, with order lines captured by trigger ({@code streams.capture.OrderLine=trigger}, which the
 * rest of the suite sets back to {@code listener}): a line changed in SQL, outside the application, reaches a
 * subscriber of its order, as the README's tour shows. Its own server; the triggers it installs on the order
 * lines are dropped again afterwards, since every other server of the suite captures lines with the listener.
 */
class DemoTriggerCaptureIT {

    private static ServerProcess server;
    private static URL base;

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.start("demo-trigger", Deployments.storeFile("demo-trigger"),
                Map.of("STREAMS_CAPTURE_ORDERLINE", "trigger"));
        server.awaitStarted(Duration.ofMinutes(3));
        base = server.deployment();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            TestDatabase.dropTriggerCapture("store_order_line");
        }
    }

    @Test
    void aLineChangedInSqlReachesTheSubscriberOfItsOrder() throws Exception {
        long order = StoreClient.as("alice", base).createOrder(
                "{\"status\":\"open\",\"total\":12.50,\"lines\":[{\"product\":\"tea\",\"quantity\":2,\"unitPrice\":6.25}]}");
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\""
                    + order + "\"}").next();
            assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
            TestDatabase.execute("UPDATE store_order_line SET quantity = quantity + 1 WHERE order_id = " + order);
            JsonObject event = alice.next();
            assertThat(event.getString("type")).isEqualTo("event");
            assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(order));
            assertThat(event.getString("facet")).isEqualTo("lines");
            assertThat(event.getString("op")).isEqualTo("updated");
        }
    }

    @Test
    void anOrderCreatedOrDeletedWithItsLinesThroughJpaIsOneRowAsWhenTheListenerCapturesTheLines() throws Exception {
        // The lines' trigger reports them on the order; the order's creation in the same transaction already says
        // all there is, so those rows go, as the entity listener's coalescing drops a part's rows of a born subject.
        long order = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":12.50,\"lines\":["
                + "{\"product\":\"tea\",\"quantity\":2,\"unitPrice\":6.25},{\"product\":\"jam\",\"quantity\":1,\"unitPrice\":3}]}");
        assertThat(rowsOf(order)).containsExactly("created object");
        assertThat(StoreClient.as("alice", base).delete("api/orders/" + order).status()).isEqualTo(204);
        assertThat(rowsOf(order)).containsExactly("created object", "deleted object");
    }

    /**
     * A line removed through the bidirectional helper with the lines captured by trigger: the business write
     * succeeds, and the trigger reports it on the order the line left (issue 40 item 2, G16).
     */
    @Test
    void aLineRemovedThroughTheHelperIsReportedOnItsOrder() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        var created = alice.post("api/orders", "{\"status\":\"open\",\"total\":8,"
                + "\"lines\":[{\"product\":\"tea\",\"quantity\":2,\"unitPrice\":4}]}");
        long order = created.id();
        long line = created.object().getJsonArray("lines").getJsonObject(0).getJsonNumber("id").longValue();
        var removed = alice.delete("api/orders/" + order + "/lines/" + line);
        assertThat(removed.status()).as(removed.raw()).isEqualTo(200);
        assertThat(rowsOf(order)).containsExactly("created object", "updated lines");
    }

    /** The order's outbox rows once assigned, in cursor order: op and facet. */
    private static java.util.List<String> rowsOf(long order) throws Exception {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> "0".equals(value(
                "SELECT count(*) FROM streams_numbered WHERE cursor IS NULL")));
        java.util.List<String> rows = new java.util.ArrayList<>();
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT op, facet FROM streams_numbered WHERE model = 'store.CustomerOrder'"
                     + " AND subject_pk = '" + order + "' ORDER BY cursor")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return rows;
    }

    private static String value(String sql) throws Exception {
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
