package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Auth;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.sql.Connection;
import java.sql.Statement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket keep-alive: {@code streams.websocket.max-idle} closes a connection with no message either way,
 * and {@code streams.websocket.ping-interval} closes one whose client no longer answers pings. One server with a
 * 3 s idle timeout, pings every 500 ms, at most 10 connections per user, and 2 requests waiting per connection.
 */
class KeepAliveIT {

    private static final String SUBSCRIBE = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\"}";
    private static ServerProcess server;
    private static URL base;

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.start("keep-alive", Deployments.storeFile("keep-alive"), Map.of(
                "STREAMS_WEBSOCKET_MAX_IDLE", "3s",
                "STREAMS_WEBSOCKET_PING_INTERVAL", "500ms",
                "STREAMS_CONNECTIONS_MAX_PER_PRINCIPAL", "10",
                "STREAMS_SUBSCRIPTIONS_MAX_PENDING_REQUESTS", "2"));
        server.awaitStarted(Duration.ofMinutes(3));
        base = server.deployment();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /**
     * The idle connection is closed for being idle, not as unresponsive, though it sent nothing for six ping
     * intervals: its client answered the pings (the JDK's client does so by itself, as browsers do).
     */
    @Test
    void aConnectionIdleForMaxIdleIsClosedAndATalkingOneIsNot() throws Exception {
        JsonObject endedBefore = ended();
        try (StreamClient idle = StreamClient.connect(base, "carol");
             StreamClient talking = StreamClient.connect(base, "carol")) {
            assertThat(idle.send(SUBSCRIBE).next().getString("type")).isEqualTo("subscribed");
            assertThat(talking.send(SUBSCRIBE).next().getString("type")).isEqualTo("subscribed");
            long start = System.nanoTime();

            Integer idleClosed = null;
            for (int i = 0; i < 16 && idleClosed == null; i++) {
                talking.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"nothing\"}");
                assertThat(talking.next().getString("type")).isEqualTo("error");
                idleClosed = idle.awaitClosed(Duration.ofMillis(500));
            }

            assertThat(idleClosed).as("the idle connection is closed").isNotNull();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(2500));
            assertThat(talking.awaitClosed(Duration.ofMillis(100))).as("the talking one stays open").isNull();
            assertThat(talking.send(SUBSCRIBE.replace("}", ",\"subscription_id\":\"again\"}")).next().getString("type"))
                    .isEqualTo("subscribed");
        }
        JsonObject endedAfter = ended();
        assertThat(count(endedAfter, "idle") - count(endedBefore, "idle")).isEqualTo(1);
        assertThat(count(endedAfter, "unresponsive")).as("a client that answers pings is never unresponsive")
                .isEqualTo(count(endedBefore, "unresponsive"));
    }

    /**
     * A client whose requests wait for the server (here each subscribe waits for a lock on the orders' table) has its
     * connection read no further once 2 requests wait: its pongs stay unread behind its frames. It is the server that
     * is slow, not the client, so it is neither unresponsive nor idle, and every request is answered once the lock
     * goes, after five ping intervals and longer than the idle timeout.
     */
    @Test
    void aClientWaitingForItsAnswersIsNeitherUnresponsiveNorIdle() throws Exception {
        JsonObject endedBefore = ended();
        try (Connection locking = TestDatabase.connect(); StreamClient carol = StreamClient.connect(base, "carol")) {
            locking.setAutoCommit(false);
            try (Statement statement = locking.createStatement()) {
                statement.execute("LOCK TABLE store_order IN ACCESS EXCLUSIVE MODE");
            }
            for (int i = 0; i < 8; i++) {
                carol.send("{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"store.CustomerOrder\","
                        + "\"filter\":{\"status\":\"open\"},\"subscription_id\":\"waiting-" + i + "\"}");
            }
            Thread.sleep(3_500);
            locking.rollback();

            for (int i = 0; i < 8; i++) {
                JsonObject answer = carol.poll(30);
                assertThat(answer).as("answer " + i).isNotNull();
                assertThat(answer.getString("type")).isEqualTo("subscribed");
                assertThat(answer.getString("subscription_id")).isEqualTo("waiting-" + i);
            }
            assertThat(carol.awaitClosed(Duration.ofMillis(100))).as("still open").isNull();
        }
        JsonObject endedAfter = ended();
        assertThat(count(endedAfter, "unresponsive")).isEqualTo(count(endedBefore, "unresponsive"));
        assertThat(count(endedAfter, "idle")).isEqualTo(count(endedBefore, "idle"));
    }

    /**
     * Payara's Tyrus schedules its idle-timer task on every send and pong; with the container's idle timeout off the
     * task never acts, and Object Streams skips it (streams.websocket.skip-container-idle-timer, on by default).
     * Both tests here keep sending and ponging through it. WildFly's Undertow has no such task to skip.
     */
    @Test
    void payarasIdleTimerTaskIsSkipped() throws Exception {
        try (StreamClient carol = StreamClient.connect(base, "carol")) {
            assertThat(carol.send(SUBSCRIBE).next().getString("type")).isEqualTo("subscribed");
        }
        String skipping = "WebSocket sessions skip Tyrus's idle-timer task";
        if (Deployments.server().equals("wildfly")) {
            assertThat(server.log()).doesNotContain(skipping);
        } else {
            assertThat(server.log()).contains(skipping).doesNotContain("no scheduler field Object Streams knows")
                    .doesNotContain("no managed scheduler field Object Streams knows");
        }
    }

    /**
     * Clients that go away without a closing handshake, at each point of it: the TCP connection closed or reset
     * before the handshake's answer was read, or after it. Payara keeps most such sessions open and WildFly keeps
     * the reset ones, without ever reporting them closed; without the pings each would hold one of the user's 10
     * connection slots for good. Here they are released within a few intervals, and the user can connect again.
     */
    @Test
    void connectionsAbandonedWithoutAClosingHandshakeAreReleasedAndTheirSlotsGivenBack() throws Exception {
        long unresponsiveBefore = count(ended(), "unresponsive");
        for (int i = 0; i < 40; i++) {
            abandon(i % 2 == 1, i % 4 >= 2);
        }
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(webSocket().getInt("sessions")).isZero());
        assertThat(count(ended(), "unresponsive")).as("released by the keep-alive").isGreaterThan(unresponsiveBefore);

        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(alice.send(SUBSCRIBE).next().getString("type")).isEqualTo("subscribed");
            Thread.sleep(2_000);
            assertThat(alice.awaitClosed(Duration.ofMillis(100))).as("a listening client that answers pings stays").isNull();
            long order = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":3}");
            JsonObject event = alice.next();
            assertThat(event.getString("type")).isEqualTo("event");
            assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(order));
        }
    }

    /** Opens a WebSocket handshake as alice by hand and leaves: closed or reset, before or after its answer. */
    private static void abandon(boolean afterAnswer, boolean reset) throws Exception {
        byte[] key = new byte[16];
        ThreadLocalRandom.current().nextBytes(key);
        String request = "GET " + base.getPath() + "streams/ws HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                + Base64.getEncoder().encodeToString(key) + "\r\nSec-WebSocket-Version: 13\r\nAuthorization: "
                + Auth.basic("alice") + "\r\n\r\n";
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (afterAnswer) {
                InputStream in = socket.getInputStream();
                assertThat(in.read(new byte[1024])).isPositive();
            }
            if (reset) {
                socket.setSoLinger(true, 0);
            }
        }
    }

    private static JsonObject webSocket() {
        JsonObject status = StoreClient.as("carol", base).get("streams/admin/status").object();
        return status.getJsonObject("transports").getJsonObject("webSocket");
    }

    private static JsonObject ended() {
        return webSocket().getJsonObject("endedByCause");
    }

    private static long count(JsonObject ended, String cause) {
        return ended.containsKey(cause) ? ended.getJsonNumber(cause).longValue() : 0;
    }
}
