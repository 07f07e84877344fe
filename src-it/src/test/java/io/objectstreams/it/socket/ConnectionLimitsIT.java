package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Delivered;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * G12: what one connection, one user and all users together may hold on an instance is bounded by config, with
 * named errors; and subscribing never needs two pooled connections at once. One server with a 4-connection
 * pool and small limits: 10 connections, 3 per principal, 5 objects per subscription and 8 per connection, and
 * server-wide 6 distinct scopes and 24 member pks.
 */
class ConnectionLimitsIT {

    private static final String MODEL = "store.CustomerOrder";
    private static ServerProcess server;
    private static URL base;

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.start("limits", Deployments.storeFile("limits"), Map.of(
                ServerProcess.POOL_MAX, "4",
                "STREAMS_CONNECTIONS_MAX", "10",
                "STREAMS_CONNECTIONS_MAX_PER_PRINCIPAL", "3",
                "STREAMS_SUBSCRIPTIONS_MAX_MEMBER_PKS", "5",
                "STREAMS_CONNECTIONS_MAX_MEMBER_PKS", "8",
                "STREAMS_SUBSCRIPTIONS_MAX_SCOPES", "6",
                "STREAMS_SUBSCRIPTIONS_MAX_TOTAL_MEMBER_PKS", "24"));
        server.awaitStarted(Duration.ofMinutes(3));
        base = server.deployment();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** Four orders of alice with a total no other test uses; a filter on it matches exactly them for her. */
    private static String fourOrdersFilter() {
        String total = ThreadLocalRandom.current().nextInt(100_000, 999_999) + ".37";
        StoreClient alice = StoreClient.as("alice", base);
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            orders.add(Long.toString(alice.createOrder("{\"status\":\"open\",\"total\":" + total + "}")));
        }
        // Fanned out before anyone subscribes: otherwise their creations may reach a subscription live, and such an
        // event can come before the reply to the next subscribe (the CI of 2026-12-05 saw it on Payara Micro). The
        // instance's own record of what it delivered: this server has ports of its own.
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> Delivered.from(alice, MODEL).pks().containsAll(orders));
        return "{\"total\":\"" + total + "\"}";
    }

    private static String subscribeFilter(String id, String filter) {
        return "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL + "\",\"subscription_id\":\"" + id
                + "\",\"filter\":" + filter + "}";
    }

    @Test
    void eightConcurrentFilterSubscribesOnAFourConnectionPoolAllStart() throws Exception {
        String filter = fourOrdersFilter();
        List<StreamClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (String user : List.of("alice", "alice", "alice", "bob", "bob", "bob", "carol", "carol")) {
                clients.add(awaitAdmitted(user));
            }
            for (int round = 0; round < 3; round++) {
                List<Future<JsonObject>> replies = new ArrayList<>();
                for (StreamClient client : clients) {
                    String id = "r" + round;
                    replies.add(pool.submit(() -> client.send(subscribeFilter(id, filter)).next()));
                }
                for (Future<JsonObject> reply : replies) {
                    assertThat(reply.get(60, TimeUnit.SECONDS).getString("type")).as("round %d", round).isEqualTo("subscribed");
                }
                for (StreamClient client : clients) {
                    client.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"r" + round + "\"}");
                    assertThat(client.next().getString("type")).isEqualTo("unsubscribed");
                }
            }
        } finally {
            pool.shutdownNow();
            clients.forEach(StreamClient::close);
        }
    }

    @Test
    void theMembersOfAllSubscriptionsOfAConnectionAreBudgeted() throws Exception {
        String filter = fourOrdersFilter();
        try (StreamClient alice = awaitAdmitted("alice")) {
            assertThat(alice.send(subscribeFilter("a", filter)).next().getString("type")).isEqualTo("subscribed");
            assertThat(alice.send(subscribeFilter("b", filter)).next().getString("type")).isEqualTo("subscribed");
            JsonObject refused = alice.send(subscribeFilter("c", filter)).next();
            assertThat(refused.getString("code")).isEqualTo("member_limit_exceeded");
            assertThat(refused.getString("message")).contains("streams.connections.max-member-pks");

            alice.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"a\"}");
            assertThat(alice.next().getString("type")).isEqualTo("unsubscribed");
            assertThat(alice.send(subscribeFilter("c", filter)).next().getString("type"))
                    .as("room again once a subscription ended").isEqualTo("subscribed");
        }
    }

    /** Issue 26, item 4: each distinct filter is a scope, and the instance holds at most 6 of them together. */
    @Test
    void distinctScopesAreBoundedServerWideAndASharedScopeCostsNothing() throws Exception {
        try (StreamClient alice = awaitAdmitted("alice")) {
            JsonObject refused = null;
            int started = 0;
            for (int i = 0; i < 10 && refused == null; i++) {
                JsonObject reply = alice.send(subscribeFilter("d" + i, "{\"total\":\"0." + (i + 11) + "\"}")).next();
                if (reply.getString("type").equals("subscribed")) {
                    started++;
                } else {
                    refused = reply;
                }
            }
            assertThat(refused).as("a seventh distinct scope at the latest is refused").isNotNull();
            assertThat(started).isLessThanOrEqualTo(6);
            assertThat(refused.getString("code")).isEqualTo("subscription_limit_exceeded");
            assertThat(refused.getString("message")).contains("streams.subscriptions.max-scopes");
            assertThat(alice.send(subscribeFilter("shared", "{\"total\":\"0.11\"}")).next().getString("type"))
                    .as("a scope already held is shared, not counted again").isEqualTo("subscribed");
            alice.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"d0\"}");
            alice.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"d1\"}");
            assertThat(alice.next().getString("type")).isEqualTo("unsubscribed");
            assertThat(alice.next().getString("type")).isEqualTo("unsubscribed");
            assertThat(alice.send(subscribeFilter("again", "{\"total\":\"0.99\"}")).next().getString("type"))
                    .as("d1's scope was given back (d0's is still shared)").isEqualTo("subscribed");
        }
    }

    /** Issue 26, item 4: the member pks of all connections together are bounded (24 here), not only per connection. */
    @Test
    void memberPksAreBoundedServerWide() throws Exception {
        String filter = fourOrdersFilter();
        List<StreamClient> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                StreamClient alice = awaitAdmitted("alice");
                held.add(alice);
                assertThat(alice.send(subscribeFilter("a", filter)).next().getString("type")).isEqualTo("subscribed");
                assertThat(alice.send(subscribeFilter("b", filter)).next().getString("type")).isEqualTo("subscribed");
            }
            StreamClient carol = awaitAdmitted("carol");
            held.add(carol);
            JsonObject refused = carol.send(subscribeFilter("c", filter)).next();
            assertThat(refused.getString("code")).isEqualTo("member_limit_exceeded");
            assertThat(refused.getString("message")).contains("streams.subscriptions.max-total-member-pks");
            assertThat(refused.getString("subscription_id")).isEqualTo("c");
            held.remove(0).close();
            JsonObject later = null;
            for (int attempt = 0; attempt < 50; attempt++) {
                later = carol.send(subscribeFilter("c" + attempt, filter)).next();
                if (later.getString("type").equals("subscribed")) {
                    break;
                }
                Thread.sleep(100);
            }
            assertThat(later.getString("type")).as("room again once a connection closed").isEqualTo("subscribed");
        } finally {
            held.forEach(StreamClient::close);
        }
    }

    @Test
    void aPrincipalMayHoldOnlyItsShareOfConnections() throws Exception {
        List<StreamClient> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                held.add(awaitAdmitted("bob"));
            }
            try (StreamClient fourth = StreamClient.connect(base, "bob")) {
                JsonObject refused = fourth.next();
                assertThat(refused.getString("code")).isEqualTo("connection_limit_exceeded");
                assertThat(refused.getString("message")).contains("streams.connections.max-per-principal");
                assertThat(fourth.awaitClosed(Duration.ofSeconds(10))).as("try again later").isEqualTo(1013);
            }
            try (SseClient sse = SseClient.open(base, "bob", "store.CustomerOrder?kind=model")) {
                assertThat(sse.status()).as("an SSE connection counts toward the same limit").isEqualTo(429);
                assertThat(sse.error().getString("code")).isEqualTo("connection_limit_exceeded");
            }
            awaitAdmitted("alice").close();
            held.remove(0).close();
            StreamClient again = awaitAdmitted("bob");
            held.add(again);
        } finally {
            held.forEach(StreamClient::close);
        }
    }

    @Test
    void theServerHoldsAtMostItsConfiguredConnections() throws Exception {
        List<StreamClient> held = new ArrayList<>();
        try {
            for (String user : List.of("alice", "alice", "alice", "bob", "bob", "bob", "carol", "carol", "carol")) {
                held.add(awaitAdmitted(user));
            }
            held.add(awaitAdmitted("dana:staff-pw"));
            try (StreamClient eleventh = StreamClient.connect(base, "dana:staff-pw")) {
                JsonObject refused = eleventh.next();
                assertThat(refused.getString("code")).isEqualTo("connection_limit_exceeded");
                assertThat(refused.getString("message")).contains("streams.connections.max");
            }
        } finally {
            held.forEach(StreamClient::close);
        }
    }

    /**
     * Connects as {@code user} and checks the connection is served, retrying while the server has not yet let go
     * of earlier connections (closing is asynchronous).
     */
    private static StreamClient awaitAdmitted(String user) throws InterruptedException {
        for (int attempt = 0; attempt < 50; attempt++) {
            StreamClient client = StreamClient.connect(base, user);
            try {
                JsonObject reply = client.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"probe\"}").poll(10);
                if (reply != null && "not_subscribed".equals(reply.getString("code", null))) {
                    return client;
                }
            } catch (RuntimeException refusedAndClosed) {
                // The server refused the connection and closed it before the probe went out.
            }
            client.close();
            Thread.sleep(100);
        }
        throw new AssertionError(user + " was not admitted");
    }
}
