package io.objectstreams.it.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.objectstreams.it.support.Auth;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.OtlpReceiver;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import io.objectstreams.it.support.WildFlyProcess;
import io.opentelemetry.proto.trace.v1.Span;
import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Metrics and delivery spans through the server's OpenTelemetry (issue 30): exact counters read from what WildFly
 * exports over OTLP after a known number of writes and subscribers, the delivery span's link to the write's span,
 * and, on Payara 6, a deployment that works without metrics and says so once.
 */
class TelemetryIT {

    private static final String MODEL = "store.CustomerOrder";
    private static final int SOCKETS = 3;
    private static final int WRITES = 5;
    private static final Map<String, String> DELIVER = Map.of("messaging.system", "objectstreams",
            "messaging.operation.name", "deliver");

    @Test
    void wildFlyExportsExactCountersAndLinksEachDeliverySpanToTheWritesSpan() throws Exception {
        assumeTrue(Deployments.server().equals("wildfly"), "MicroProfile Telemetry with metrics: WildFly");
        try (OtlpReceiver otlp = OtlpReceiver.start();
             ServerProcess server = ServerProcess.start("telemetry", Deployments.storeFile("telemetry"),
                     // One subscription per WebSocket connection: a second is a limit's refusal, counted by setting.
                     Map.of("STREAMS_WEBSOCKET_MAX_SUBSCRIPTIONS", "1",
                             WildFlyProcess.EXTRA_JAVA_OPTS, "-Dotel.sdk.disabled=false"
                             + " -Dotel.exporter.otlp.protocol=http/protobuf -Dotel.exporter.otlp.endpoint=" + otlp.endpoint()
                             + " -Dotel.metric.export.interval=500 -Dotel.bsp.schedule.delay=100"
                             + " -Dotel.traces.sampler=always_on -Dotel.logs.exporter=none"))) {
            server.awaitStarted(Duration.ofMinutes(3));
            assertThat(server.log()).contains("Object Streams metrics are on");
            URL store = server.root().resolve("/store/").toURL();
            await().atMost(Duration.ofSeconds(60)).until(() -> Health.listener(server.healthRoot(), "ready").up());

            List<StreamClient> sockets = new ArrayList<>();
            try (SseClient sse = SseClient.open(store, "alice", MODEL + "?kind=model")) {
                assertThat(sse.next(30).event()).isEqualTo("subscribed");
                for (int i = 0; i < SOCKETS; i++) {
                    StreamClient socket = StreamClient.connect(store, "alice");
                    sockets.add(socket);
                    if (i == 0) { // before its one subscription: the limit is not what refuses it
                        JsonObject refused = socket.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":"
                                + "\"store.NoSuchModel\"}").next();
                        assertThat(refused.getString("code")).isEqualTo("not_found");
                    }
                    JsonObject subscribed = socket.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL + "\"}").next();
                    assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
                }
                JsonObject limited = sockets.get(0).send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                        + "\",\"subscription_id\":\"second\"}").next();
                assertThat(limited.getString("code")).as(limited.toString()).isEqualTo("subscription_limit_exceeded");
                assertThat(limited.getJsonObject("details").getString("setting"))
                        .isEqualTo("streams.websocket.max-subscriptions");

                // The first write comes from a request that carries a trace context of its own.
                String traceId = hex(16);
                String clientSpan = hex(8);
                long traced = createOrder(store, "00-" + traceId + "-" + clientSpan + "-01");
                StoreClient alice = StoreClient.as("alice", store);
                for (int i = 1; i < WRITES; i++) {
                    alice.createOrder("{\"status\":\"open\",\"total\":" + i + ".00}");
                }
                for (StreamClient socket : sockets) {
                    for (int i = 0; i < WRITES; i++) {
                        JsonObject event = socket.next();
                        assertThat(event.getString("type")).isEqualTo("event");
                        assertThat(event.toString()).as("trace context is server-side only").doesNotContain("traceparent");
                    }
                }
                for (int i = 0; i < WRITES; i++) {
                    assertThat(sse.next(30).event()).isEqualTo("event");
                }

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    assertThat(otlp.failures()).as("unreadable exports").isEmpty();
                    assertThat(otlp.latest("messaging.client.sent.messages", transport(DELIVER, "websocket")))
                            .as("exported: " + otlp.metricNames())
                            .contains((long) SOCKETS * WRITES);
                    assertThat(otlp.latest("messaging.client.sent.messages", transport(DELIVER, "sse")))
                            .contains((long) WRITES);
                    assertThat(otlp.histogramCount("objectstreams.delivery.latency", transport(DELIVER, "websocket")))
                            .contains((long) SOCKETS * WRITES);
                    assertThat(otlp.histogramCount("objectstreams.delivery.latency", transport(DELIVER, "sse")))
                            .contains((long) WRITES);
                    assertThat(otlp.latest("objectstreams.connections.opened", transport(Map.of(), "websocket")))
                            .contains((long) SOCKETS);
                    assertThat(otlp.latest("objectstreams.connections.opened", transport(Map.of(), "sse")))
                            .contains(1L);
                    assertThat(otlp.latest("objectstreams.refusals", Map.of("error.type", "not_found")))
                            .contains(1L);
                    assertThat(otlp.latest("objectstreams.refusals", Map.of("error.type", "subscription_limit_exceeded")))
                            .contains(1L);
                    assertThat(otlp.latest("objectstreams.refusals.limits",
                            Map.of("objectstreams.setting", "streams.websocket.max-subscriptions"))).contains(1L);
                    assertThat(otlp.latest("objectstreams.sessions", transport(Map.of(), "websocket")))
                            .contains((long) SOCKETS);
                    assertThat(otlp.latest("objectstreams.subscriptions", transport(Map.of(), "sse"))).contains(1L);
                    assertThat(otlp.latest("objectstreams.backlog.rows", Map.of())).contains(0L);
                    assertThat(otlp.histogramCount("messaging.process.duration", DELIVER)).hasValueSatisfying(
                            batches -> assertThat(batches).isBetween(1L, (long) WRITES));
                });
                // What the demo shows (docs/operations.md): the same figures as Prometheus text.
                assertThat(otlp.prometheusText()).contains("messaging_client_sent_messages{messaging_operation_name="
                        + "\"deliver\",messaging_system=\"objectstreams\",objectstreams_transport=\"websocket\"} "
                        + SOCKETS * WRITES + "\n");

                // A counter is exported from its first data point on: no resync happened, and no connection has ended.
                sockets.remove(SOCKETS - 1).close();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(otlp.latest(
                        "objectstreams.connections.ended", Map.of("objectstreams.transport", "websocket",
                                "objectstreams.connection.end_cause", "close_1000"))).contains(1L));
                assertThat(otlp.metricNames()).contains("objectstreams.events.dropped", "objectstreams.outbound.queued", "objectstreams.backlog.age",
                        "objectstreams.cursor.last_assigned", "objectstreams.cursor.last_delivered");

                // The write's row holds the span that wrote it: the server's span in the client's trace.
                String stored = traceparentOf(traced);
                Matcher parts = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-01").matcher(String.valueOf(stored));
                assertThat(parts.matches()).as("stored traceparent " + stored).isTrue();
                assertThat(parts.group(1)).isEqualTo(traceId);
                String writeSpan = parts.group(2);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Optional<Span> delivery = otlp.spans().stream()
                            .filter(span -> span.getName().equals("objectstreams deliver"))
                            .filter(span -> span.getLinksList().stream().anyMatch(link ->
                                    OtlpReceiver.hex(link.getTraceId()).equals(traceId)
                                            && OtlpReceiver.hex(link.getSpanId()).equals(writeSpan)))
                            .findFirst();
                    assertThat(delivery).as("a delivery span linked to the write's span").isPresent();
                    assertThat(OtlpReceiver.hex(delivery.get().getTraceId()))
                            .as("linked, not parented: the delivery has a trace of its own").isNotEqualTo(traceId);
                    assertThat(delivery.get().getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CONSUMER);
                });
                assertThat(otlp.spans()).as("the write's own span, exported by the server")
                        .anyMatch(span -> OtlpReceiver.hex(span.getSpanId()).equals(writeSpan)
                                && OtlpReceiver.hex(span.getTraceId()).equals(traceId));
            } finally {
                sockets.forEach(StreamClient::close);
            }
        }
    }

    @Test
    void withoutMetricsThePayaraDeploymentServesAndSaysSoOnce() throws Exception {
        assumeTrue(!Deployments.server().equals("wildfly"), "Payara 6: MicroProfile Telemetry 1.0, SDK off by default");
        try (ServerProcess server = ServerProcess.start("no-telemetry", Deployments.storeFile("no-telemetry"),
                Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            await().atMost(Duration.ofSeconds(60)).until(() -> Health.listener(server.healthRoot(), "ready").up());
            URL store = server.root().resolve("/store/").toURL();
            try (StreamClient socket = StreamClient.connect(store, "alice")) {
                JsonObject subscribed = socket.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL + "\"}").next();
                assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
                StoreClient.as("alice", store).createOrder("{\"status\":\"open\",\"total\":1.00}");
                assertThat(socket.next().getString("type")).isEqualTo("event");
            }
            // Payara 6 and 7 offer MicroProfile Telemetry with its SDK off, as the specification has it: said once, and
            // for that reason, not for a failure to use it.
            assertThat(Pattern.compile("Object Streams metrics are off").matcher(server.log()).results().count())
                    .as("one INFO line").isEqualTo(1);
            assertThat(server.log()).contains("Object Streams metrics are off: the server's OpenTelemetry exports"
                    + " nothing (MicroProfile Telemetry keeps its SDK off until otel.sdk.disabled=false)");
        }
    }

    private static String traceparentOf(long order) throws Exception {
        try (java.sql.Connection db = TestDatabase.connect();
             java.sql.PreparedStatement read = db.prepareStatement("SELECT metadata->>'traceparent' FROM streams_numbered"
                     + " WHERE model = ? AND subject_pk = ? AND metadata->>'traceparent' IS NOT NULL")) {
            read.setString(1, MODEL);
            read.setString(2, Long.toString(order));
            try (java.sql.ResultSet rows = read.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private static Map<String, String> transport(Map<String, String> base, String transport) {
        Map<String, String> attributes = new java.util.HashMap<>(base);
        attributes.put("objectstreams.transport", transport);
        return attributes;
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zeros
        return HexFormat.of().formatHex(random);
    }

    /** Creates an order as alice in a request carrying {@code traceparent}; returns its id. */
    private static long createOrder(URL store, String traceparent) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        java.net.URI.create(store.toString()).resolve("api/orders"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("Authorization", Auth.basic("alice"))
                .header("traceparent", traceparent)
                .POST(HttpRequest.BodyPublishers.ofString("{\"status\":\"open\",\"total\":9.00}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        Matcher id = Pattern.compile("\"id\"\\s*:\\s*(\\d+)").matcher(response.body());
        assertThat(id.find()).as(response.body()).isTrue();
        return Long.parseLong(id.group(1));
    }
}
