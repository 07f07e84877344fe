package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Filter and model subscriptions over WebSocket against the demo store: membership (added / changed / removed /
 * deleted), the visibility matrix under random writes, the cost of a batch in queries, limits, and a client
 * that stops reading (G8–G12). The suite sets {@code streams.outbound.max-connection-bytes} to 8 MiB.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SetSubscriptionsIT {

    private static final String MODEL = "store.CustomerOrder";

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    private static String filter(String id, String field, String filter) {
        return "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL + "\",\"subscription_id\":\"" + id
                + "\",\"" + field + "\":" + filter + "}";
    }

    private static String model(String model, String id) {
        return "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + model + "\",\"subscription_id\":\"" + id + "\"}";
    }

    private static void assertEvent(JsonObject event, String subscription, long pk, String op, String listAction) {
        assertThat(event.getString("type")).as(event.toString()).isEqualTo("event");
        assertThat(event.getString("subscription_id")).isEqualTo(subscription);
        assertThat(event.getJsonObject("subject").getString("model")).isEqualTo(MODEL);
        assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(pk));
        assertThat(event.getString("op")).isEqualTo(op);
        assertThat(event.getString("list_action")).as(event.toString()).isEqualTo(listAction);
        assertThat(event.getBoolean("fetch")).isEqualTo(listAction.equals("added") || listAction.equals("changed"));
        assertThat(event.getString("transaction_id")).isNotBlank();
    }

    @Test
    void aFilterSubscriptionFollowsAnObjectInAndOutOfTheSet() throws Exception {
        StoreClient store = StoreClient.as("alice", base);
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send(filter("open", "filter", "{\"status\":\"open\"}")).next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getString("subscription_id")).isEqualTo("open");
            assertThat(subscribed.getString("kind")).isEqualTo("filter");
            assertThat(subscribed.getString("model")).isEqualTo(MODEL);
            assertThat(subscribed.getJsonObject("filter").getString("status")).isEqualTo("open");
            assertThat(subscribed.containsKey("pk")).isFalse();
            long cursor = subscribed.getJsonNumber("cursor").longValue();

            long id = store.createOrder("{\"status\":\"open\",\"total\":5}");
            JsonObject added = alice.next();
            assertEvent(added, "open", id, "created", "added");
            assertThat(added.getJsonNumber("cursor").longValue()).isGreaterThan(cursor);
            assertThat(added.getBoolean("own")).isTrue();

            store.patch("api/orders/" + id, "{\"note\":\"still open\"}");
            JsonObject changed = alice.next();
            assertEvent(changed, "open", id, "updated", "changed");
            assertThat(changed.getJsonArray("changed_fields").getString(0)).isEqualTo("note");

            StoreClient.as("carol", base).patch("api/orders/" + id, "{\"status\":\"paid\"}");
            JsonObject removed = alice.next();
            assertEvent(removed, "open", id, "updated", "removed");
            assertThat(removed.getBoolean("own")).isFalse();

            store.patch("api/orders/" + id, "{\"note\":\"paid, not in the set\"}");
            // Membership is decided against the database as it is at fan-out: let this change be fanned out while
            // the order is still paid, or it would already match, as the next write makes it.
            awaitFannedOut();
            store.patch("api/orders/" + id, "{\"status\":\"open\"}");
            assertEvent(alice.next(), "open", id, "updated", "added");

            store.delete("api/orders/" + id);
            assertEvent(alice.next(), "open", id, "deleted", "deleted");

            long paid = store.createOrder("{\"status\":\"paid\",\"total\":5}");
            store.delete("api/orders/" + paid);
            assertThat(alice.drain(1500)).as("no effect, nothing sent").isEmpty();
        }
    }

    private void awaitFannedOut() {
        Outbox.awaitFannedOut(base);
    }

    @Test
    void filtersAcceptTheAliasAndRangeLookups() throws Exception {
        StoreClient store = StoreClient.as("alice", base);
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send(filter("big", "filters", "{\"total__gte\":\"100\",\"status__in\":[\"open\",\"paid\"]}")).next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getJsonObject("filter").getString("total__gte")).isEqualTo("100");

            long small = store.createOrder("{\"status\":\"open\",\"total\":99.99}");
            long big = store.createOrder("{\"status\":\"open\",\"total\":100}");
            assertEvent(alice.next(), "big", big, "created", "added");
            store.patch("api/orders/" + small, "{\"total\":250}");
            assertEvent(alice.next(), "big", small, "updated", "added");
            store.patch("api/orders/" + big, "{\"status\":\"shipped\"}");
            assertEvent(alice.next(), "big", big, "updated", "removed");
            assertThat(alice.drain(1000)).isEmpty();
        }
    }

    @Test
    void aBadFilterIsRefusedWithDetailsPerField() throws Exception {
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject error = alice.send(filter("bad", "filter",
                    "{\"status\":5,\"total__gt\":\"lots\",\"note\":\"x\",\"owner__gte\":\"a\"}")).next();
            assertThat(error.getString("type")).isEqualTo("error");
            assertThat(error.getString("code")).isEqualTo("invalid_filter");
            assertThat(error.getString("message")).isEqualTo("Subscription filters are invalid.");
            JsonObject details = error.getJsonObject("details");
            assertThat(details.keySet()).containsExactlyInAnyOrder("status", "total__gt", "note", "owner__gte");
            assertThat(details.getJsonArray("status").getString(0)).isEqualTo("Enter text.");
            assertThat(details.getJsonArray("total__gt").getString(0)).isEqualTo("Enter a number.");
            assertThat(details.getJsonArray("note").getString(0)).contains("Unknown filter");
            assertThat(details.getJsonArray("owner__gte").getString(0)).contains("not allowed");

            assertThat(alice.send(filter("good", "filter", "{}")).next().getString("type"))
                    .as("an empty filter is valid; the session goes on").isEqualTo("subscribed");
        }
    }

    @Test
    void aModelSubscriptionResumedFromAnOldCursorReplaysWhatChangedThenGoesLive() throws Exception {
        StoreClient store = StoreClient.as("alice", base);
        long id = store.createOrder("{\"status\":\"open\",\"total\":1}");
        long cursor;
        try (StreamClient first = StreamClient.connect(base, "alice")) {
            assertThat(first.send(model(MODEL, "m")).next().getString("type")).isEqualTo("subscribed");
            // The last event this client processed: the order's creation is at or below it.
            store.patch("api/orders/" + id, "{\"note\":\"seen\"}");
            cursor = first.nextChangeOf("note").getJsonNumber("cursor").longValue();
        }
        store.patch("api/orders/" + id, "{\"note\":\"missed\"}");
        try (StreamClient again = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = again.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"m\",\"cursor\":" + cursor + "}").next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getString("kind")).isEqualTo("model");
            JsonObject replayed = again.nextChangeOf("note");
            assertEvent(replayed, "m", id, "updated", "changed");
            assertThat(replayed.getJsonNumber("cursor").longValue()).isGreaterThan(cursor);

            store.patch("api/orders/" + id, "{\"total\":2}");
            JsonObject live = again.nextChangeOf("total");
            assertEvent(live, "m", id, "updated", "changed");
            assertThat(live.getJsonNumber("cursor").longValue()).isGreaterThan(replayed.getJsonNumber("cursor").longValue());
        }
    }

    /**
     * Under a keyed policy a viewer's keys are asked once per subscription, when it starts, and everything after is
     * decided with them: its members too, or a viewer whose keys change while it subscribes would start with members
     * that its batches then contradict (KeyedVisibilityPolicy).
     */
    @Test
    void aKeyedPolicyIsAskedTheViewersKeysOncePerSubscription() throws Exception {
        TestDatabase.execute("INSERT INTO it_doc (id, owner) VALUES (9001, 'bob'), (9002, 'alice')"
                + " ON CONFLICT (id) DO UPDATE SET owner = excluded.owner");
        StoreClient carol = StoreClient.as("carol", base);
        assertThat(carol.post("api/it/doc-keys/reset", null).status()).isEqualTo(200);
        try (StreamClient bob = StreamClient.connect(base, "bob")) {
            JsonObject subscribed = bob.send(model("ItDoc", "docs")).next();
            assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
        }
        assertThat(carol.get("api/it/doc-keys?viewer=bob").object().getInt("asked"))
                .as("keysOf asked for bob's one subscription").isEqualTo(1);
    }

    /**
     * Issue 27, a reconnect storm of distinct viewers under the keyed policy: subscriptions registered together read
     * every order's keys once for all of them (StartMemberReads), and each still starts with exactly its own members. A
     * change of one's own order then arrives as changed (a member), not as added, and nobody hears of the others'.
     */
    @Test
    void distinctViewersSubscribingTogetherEachStartWithExactlyTheirOwnMembers() throws Exception {
        int viewers = 12;
        Map<Integer, Long> orders = new HashMap<>();
        for (int u = 151; u < 151 + viewers; u++) {
            orders.put(u, StoreClient.as("u" + u, base).createOrder("{\"status\":\"open\",\"total\":1}"));
        }
        awaitFannedOut();
        List<StreamClient> clients = new ArrayList<>();
        try {
            for (int u = 151; u < 151 + viewers; u++) {
                clients.add(StreamClient.connect(base, "u" + u + ":load-pw"));
            }
            TestDatabase.resetStatementCounts();
            // Sent together, so that they register between the same two batches, as in a storm.
            clients.forEach(client -> client.send(model(MODEL, "mine")));
            for (StreamClient client : clients) {
                assertThat(client.next().getString("type")).isEqualTo("subscribed");
            }
            assertThat(TestDatabase.statementCalls("%store_order%owner in (%"))
                    .as("members queries of one viewer each; the others shared one read of every order's keys")
                    .isLessThanOrEqualTo(3);
            for (int u = 151; u < 151 + viewers; u++) {
                StoreClient.as("u" + u, base).patch("api/orders/" + orders.get(u), "{\"note\":\"mine\"}");
            }
            for (int i = 0; i < viewers; i++) {
                JsonObject own = clients.get(i).nextChangeOf("note");
                assertEvent(own, "mine", orders.get(151 + i), "updated", "changed");
            }
            for (StreamClient client : clients) {
                assertThat(client.drain(300)).as("nothing of the other viewers' orders").isEmpty();
            }
        } finally {
            clients.forEach(StreamClient::close);
        }
    }

    @Test
    void aSubscriptionMatchingTooManyObjectsIsRefused() throws Exception {
        TestDatabase.execute("INSERT INTO it_note (text) SELECT 'too-large' FROM generate_series(1, 10001)");
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject error = alice.send(model("ItNote", "all")).next();
            assertThat(error.getString("type")).isEqualTo("error");
            assertThat(error.getString("code")).isEqualTo("subscription_too_large");
            assertThat(error.getString("message")).contains("streams.subscriptions.max-member-pks");
            assertThat(alice.send(model(MODEL, "all")).next().getString("type")).as("the session goes on")
                    .isEqualTo("subscribed");
        } finally {
            TestDatabase.execute("DELETE FROM it_note WHERE text = 'too-large'");
        }
    }

    /** One user's connection with a model, a filter and an object subscription, and what it received. */
    private final class Watcher implements AutoCloseable {
        final String user;
        final StreamClient client;
        final Map<String, List<JsonObject>> events = new HashMap<>();

        Watcher(String user, long ownOrder) throws InterruptedException {
            this.user = user;
            client = StreamClient.connect(base, user);
            assertThat(client.send(model(MODEL, "model")).next().getString("type")).isEqualTo("subscribed");
            assertThat(client.send(filter("open", "filter", "{\"status\":\"open\"}")).next().getString("type"))
                    .isEqualTo("subscribed");
            assertThat(client.send("{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":" + ownOrder
                    + ",\"subscription_id\":\"object\"}").next().getString("type")).isEqualTo("subscribed");
        }

        int count(String subscription) {
            return events.getOrDefault(subscription, List.of()).size();
        }

        /** Reads until the model subscription has {@code expected} events. */
        void await(int expected) throws InterruptedException {
            while (count("model") < expected) {
                JsonObject message = client.poll(20);
                assertThat(message).as(user + " waited for model events: " + count("model") + " of " + expected).isNotNull();
                add(message);
            }
        }

        /** Reads until the model subscription has {@code expected} events, then whatever else arrives. */
        void collect(int expected) throws InterruptedException {
            await(expected);
            client.drain(1000).forEach(this::add);
        }

        private void add(JsonObject message) {
            assertThat(message.getString("type")).as(user + ": " + message).isEqualTo("event");
            events.computeIfAbsent(message.getString("subscription_id"), k -> new ArrayList<>()).add(message);
        }

        Set<Long> subjects() {
            Set<Long> pks = new HashSet<>();
            events.values().forEach(list -> list.forEach(e -> pks.add(Long.valueOf(e.getJsonObject("subject").getString("pk")))));
            return pks;
        }

        @Override
        public void close() {
            client.close();
        }
    }

    @Test
    void underRandomWritesEachUserSeesOnlyWhatTheyMayAndStaffSeesEverything() throws Exception {
        Map<String, StoreClient> stores = Map.of("alice", StoreClient.as("alice", base), "bob", StoreClient.as("bob", base));
        Map<String, List<Long>> live = new HashMap<>();
        Map<String, Set<Long>> owned = new HashMap<>();
        Map<String, Integer> writes = new HashMap<>(Map.of("alice", 0, "bob", 0));
        for (String user : List.of("alice", "bob")) {
            long first = stores.get(user).createOrder("{\"status\":\"open\",\"total\":1}");
            live.put(user, new ArrayList<>(List.of(first)));
            owned.put(user, new HashSet<>(Set.of(first)));
        }
        // Each watcher's model subscription would otherwise get the creation of these orders live, ahead of the
        // replies to its other subscribes (they start after the last batch fanned out; seen on Payara Server).
        awaitFannedOut();
        Map<Long, Integer> writesPerOrder = new HashMap<>();
        Map<Long, String> statuses = new HashMap<>();
        Random random = new Random(20261130);
        try (Watcher alice = new Watcher("alice", live.get("alice").get(0));
             Watcher bob = new Watcher("bob", live.get("bob").get(0));
             Watcher carol = new Watcher("carol", live.get("alice").get(0))) {
            for (int i = 0; i < 500; i++) {
                String user = random.nextBoolean() ? "alice" : "bob";
                StoreClient store = stores.get(user);
                List<Long> orders = live.get(user);
                double dice = random.nextDouble();
                long id;
                if (orders.size() < 3 || dice < 0.25) {
                    String status = random.nextBoolean() ? "open" : "paid";
                    id = store.createOrder("{\"status\":\"" + status + "\",\"total\":" + random.nextInt(500) + "}");
                    statuses.put(id, status);
                    orders.add(id);
                    owned.get(user).add(id);
                } else {
                    id = orders.get(1 + random.nextInt(orders.size() - 1));
                    String path = "api/orders/" + id;
                    int status;
                    if (dice < 0.55) {
                        // Always a real change: writing the same value records nothing.
                        String next = statuses.get(id).equals("open") ? "paid" : "open";
                        statuses.put(id, next);
                        status = store.patch(path, "{\"status\":\"" + next + "\"}").status();
                    } else if (dice < 0.85) {
                        status = store.patch(path, "{\"note\":\"n" + i + "\"}").status();
                    } else {
                        // Events a delete supersedes in the same batch are not sent (docs/protocol.md): let the
                        // object's earlier writes be delivered first, so every write has its own event to count.
                        carol.await(i);
                        status = store.delete(path).status();
                        orders.remove(id);
                    }
                    assertThat(status).isLessThan(300);
                }
                writes.merge(user, 1, Integer::sum);
                writesPerOrder.merge(id, 1, Integer::sum);
            }

            carol.collect(500);
            alice.collect(writes.get("alice"));
            bob.collect(writes.get("bob"));

            assertThat(bob.subjects()).as("bob never hears of alice's orders").doesNotContainAnyElementsOf(owned.get("alice"));
            assertThat(alice.subjects()).as("alice never hears of bob's orders").doesNotContainAnyElementsOf(owned.get("bob"));
            for (Watcher watcher : List.of(alice, bob, carol)) {
                for (List<JsonObject> received : watcher.events.values()) {
                    assertThat(received).extracting(e -> e.getJsonNumber("cursor").longValue()).isSorted().doesNotHaveDuplicates();
                    for (JsonObject e : received) {
                        String expected = switch (e.getString("op")) {
                            case "created" -> "added";
                            case "deleted" -> "deleted";
                            default -> null;
                        };
                        if (expected != null && !e.getString("subscription_id").equals("open")) {
                            assertThat(e.getString("list_action")).as(e.toString()).isEqualTo(expected);
                        }
                    }
                }
            }
            assertThat(carol.subjects()).as("staff hears of both users' orders")
                    .containsAnyElementsOf(owned.get("alice")).containsAnyElementsOf(owned.get("bob"));
            assertThat(alice.count("model")).isEqualTo(writes.get("alice"));
            assertThat(bob.count("model")).isEqualTo(writes.get("bob"));
            assertThat(carol.count("model")).as("staff sees every write").isEqualTo(500);
            Map<Long, Integer> carolPerOrder = new HashMap<>();
            carol.events.get("model").forEach(e -> carolPerOrder.merge(Long.valueOf(e.getJsonObject("subject").getString("pk")), 1, Integer::sum));
            assertThat(carolPerOrder).isEqualTo(writesPerOrder);
            assertThat(carol.events.get("model")).allSatisfy(e -> assertThat(e.getBoolean("own")).isFalse());
            assertThat(alice.events.get("model")).allSatisfy(e -> assertThat(e.getBoolean("own")).isTrue());
            assertThat(carol.events.get("open")).extracting(e -> e.getString("list_action")).contains("added", "removed", "changed", "deleted");
        }
    }

    /**
     * The property of issue 27, on the real server and database: deciding visibility for many viewers at once
     * (keyed policies in memory, arbitrary predicates multiplexed) gives each viewer exactly what one query for that
     * viewer gives. Random worlds, policies, filters and viewers, from a seed that is printed (and can be set with
     * {@code -Dstreams.it.visibility-seed} to replay a failure). Issue 40: keyed answers are also checked against
     * the rule itself, some policies key through a folder that may be null (item 8), and the one read of every
     * row's keys runs under bounds some worlds pass, where it must be refused whole (item 10).
     */
    @Test
    void visibilityForManyViewersAtOnceIsExactlyEachViewersOwn() {
        long seed = Long.getLong("streams.it.visibility-seed", System.nanoTime());
        StoreClient.Reply reply = StoreClient.as("carol", base).post("api/it/visibility-equivalence?trials=60&seed=" + seed, null);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        JsonObject result = reply.body().asJsonObject();
        System.out.println("[visibility-equivalence] seed " + seed + ": " + result);
        assertThat(result.getJsonArray("first")).as("differences, seed " + seed).isEmpty();
        assertThat(result.getInt("differences")).isZero();
        // The draw covers both forms, and a world where the viewers see something.
        assertThat(result.getInt("keyed")).isBetween(1, 59);
        assertThat(result.getJsonNumber("scopes").longValue()).isGreaterThan(1000);
        assertThat(result.getJsonNumber("visible").longValue()).isPositive();
    }

    @Test
    void theQueriesOfABatchGrowWithDistinctFiltersNotWithViewersOrSubscriptions() throws Exception {
        Map<String, Long> orders = new HashMap<>();
        for (String user : List.of("alice", "bob", "carol")) {
            orders.put(user, StoreClient.as(user, base).createOrder("{\"status\":\"open\",\"total\":10}"));
        }
        // Their creation reaches the subscriptions below live otherwise, ahead of a subscribe's reply (WildFly, 2026-12-05).
        awaitFannedOut();
        String[] filters = {"{\"status\":\"open\"}", "{\"total__gte\":\"0\"}"};
        Map<String, Integer> perUser = Map.of("alice", 67, "bob", 67, "carol", 66);
        List<StreamClient> clients = new ArrayList<>();
        List<StreamClient> customers = new ArrayList<>();
        try {
            for (String user : List.of("alice", "bob", "carol")) {
                StreamClient client = StreamClient.connect(base, user);
                clients.add(client);
                for (int i = 0; i < perUser.get(user); i++) {
                    assertThat(client.send(filter("f" + i, "filter", filters[i % 2])).next().getString("type")).isEqualTo("subscribed");
                }
            }
            // 100 more distinct viewers (the demo's load population), each with both filters: they own none of the
            // orders, see nothing, and cost the batch no query.
            for (int u = 1; u <= 100; u++) {
                StreamClient customer = StreamClient.connect(base, "u" + u + ":load-pw");
                customers.add(customer);
                for (int i = 0; i < 2; i++) {
                    assertThat(customer.send(filter("f" + i, "filter", filters[i])).next().getString("type")).isEqualTo("subscribed");
                }
            }
            awaitFannedOut(); // only the one batch below is counted, not a late fan-out of earlier writes
            TestDatabase.resetStatementCounts();
            try (Connection c = TestDatabase.connect()) {
                c.setAutoCommit(false);
                try (Statement update = c.createStatement();
                     PreparedStatement outbox = c.prepareStatement("INSERT INTO streams_outbox (model, subject_pk, op,"
                             + " changed_fields) VALUES ('" + MODEL + "', ?, 'updated', '{note}')")) {
                    update.executeUpdate("UPDATE store_order SET note = 'counted' WHERE id IN ("
                            + orders.values().stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow() + ")");
                    for (long id : orders.values()) {
                        outbox.setString(1, Long.toString(id));
                        outbox.addBatch();
                    }
                    outbox.executeBatch();
                }
                c.commit();
            }
            // alice and bob see their own order on every subscription; carol sees all three on hers.
            Map<String, Integer> expected = Map.of("alice", 67, "bob", 67, "carol", 66 * 3);
            for (int u = 0; u < 3; u++) {
                String user = List.of("alice", "bob", "carol").get(u);
                for (int i = 0; i < expected.get(user); i++) {
                    assertThat(clients.get(u).next().getString("list_action")).isEqualTo("changed");
                }
                assertThat(clients.get(u).drain(500)).as("nothing more for " + user).isEmpty();
            }
            for (StreamClient customer : customers) {
                assertThat(customer.drain(customer == customers.get(0) ? 500 : 0)).as("nothing for a load customer").isEmpty();
            }
            long queries = TestDatabase.statementCalls("select%store_order%");
            String statements = TestDatabase.statements("select%store_order%");
            System.out.printf("[query-count] 400 subscriptions, 103 viewers x 2 filters, 1 batch of 3 events:"
                    + " %d membership queries%n", queries);
            // The demo's policy is keyed: one query per (model, filter) decides every viewer.
            assertThat(queries).as("one query per distinct filter, not per viewer or subscription; the statements: "
                    + statements).isBetween(1L, 2L);
        } finally {
            clients.forEach(StreamClient::close);
            customers.forEach(StreamClient::close);
        }
    }

    /**
     * Many clients subscribing at once, as when a page opens for many users: every subscription starts. Each
     * subscribe reads the cursor state and the membership one pooled connection at a time; holding one while
     * waiting for another let 200 simultaneous subscribes exhaust a 32-connection pool and fail after its wait.
     */
    @Test
    void twoHundredSimultaneousSubscribesAllStart() throws Exception {
        List<StreamClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                clients.add(StreamClient.connect(base, i % 2 == 0 ? "alice" : "carol"));
            }
            clients.parallelStream().forEach(c -> c.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}"));
            for (StreamClient client : clients) {
                JsonObject reply = client.poll(90);
                assertThat(reply).as("a reply to every subscribe").isNotNull();
                assertThat(reply.getString("type")).as("%s", reply).isEqualTo("subscribed");
            }
            long order = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":3}");
            for (StreamClient client : clients) {
                JsonObject event = client.next();
                assertThat(event.getString("list_action")).isEqualTo("added");
                assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(order));
            }
        } finally {
            clients.forEach(StreamClient::close);
        }
    }

    /**
     * Issue 26, item 2 (G12, G15): replies are charged to the connection's byte budget. A client that stops reading
     * and keeps sending requests whose replies are large (each {@code subscribed} echoes a 60 KB filter) is
     * disconnected once its unread replies pass the budget (8 MB here), and a refusal never echoes more than a
     * short prefix of what it was sent.
     */
    @Test
    void aClientThatStopsReadingAndSendsLargeRequestsIsBoundedThenDisconnected() throws Exception {
        String big = "x".repeat(60_000);
        try (StreamClient rude = StreamClient.connect(base, "bob");
             StreamClient honest = StreamClient.connect(base, "alice")) {
            JsonObject refused = rude.send("{\"op\":\"" + big + "\"}").next();
            assertThat(refused.getString("code")).isEqualTo("invalid_request");
            assertThat(refused.toString()).as("a short prefix of the op, at most").hasSizeLessThan(400);

            rude.pause();
            String subscribe = "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"big\",\"filter\":{\"status\":\"" + big + "\"}}";
            String unsubscribe = "{\"op\":\"unsubscribe\",\"subscription_id\":\"big\"}";
            long maxQueued = 0;
            int sent = 0;
            // Until the server gives the connection up: it then stops reading it, and a send no longer completes.
            // The sockets' buffers take tens of MB first on WildFly (see the slow-consumer test below): up to 180 MB.
            while (sent < 3_000 && rude.trySend(subscribe, Duration.ofSeconds(5))
                    && rude.trySend(unsubscribe, Duration.ofSeconds(5))) {
                if (sent++ % 10 == 0) {
                    maxQueued = Math.max(maxQueued, Health.listener(Health.root(base), "ready").number("queuedBytes"));
                }
            }
            maxQueued = Math.max(maxQueued, Health.listener(Health.root(base), "ready").number("queuedBytes"));
            System.out.printf("[unread-replies] %d subscribes of 60 KB sent, at most %d bytes queued%n", sent, maxQueued);
            assertThat(maxQueued).as("unread replies stay within the connection's budget")
                    .isLessThanOrEqualTo((8L << 20) + 128 * 1024);
            rude.resume();
            // 1008 when its close frame gets through; a client that reads nothing may instead see the connection drop.
            assertThat(rude.awaitClosed(Duration.ofSeconds(60))).as("disconnected for its unread replies")
                    .isIn(1008, 1006, -1);

            honest.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL + "\",\"subscription_id\":\"m\"}");
            assertThat(honest.next().getString("type")).isEqualTo("subscribed");
            long order = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":3}");
            JsonObject event = honest.next();
            assertThat(event.getString("type")).as("the honest connection carries on").isEqualTo("event");
            assertThat(event.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(order));
        }
    }

    @Test
    void aClientThatStopsReadingIsToldToResyncAndDelaysNobody() throws Exception {
        String note = StoreClient.as("alice", base).post("api/it/capture/non-streamed", null).object().getString("result");
        String subscribe = "{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\",\"subscription_id\":\"n\"}";
        int chunks = 24;
        int perChunk = 500;
        try (StreamClient slow = StreamClient.connect(base, "alice");
             StreamClient fast = StreamClient.connect(base, "bob")) {
            assertThat(slow.send(subscribe).next().getString("type")).isEqualTo("subscribed");
            assertThat(fast.send(subscribe).next().getString("type")).isEqualTo("subscribed");
            slow.pause();
            long last = 0;
            long droppedBefore = Health.listener(Health.root(base), "ready").number("droppedEvents");
            int written = 0;
            // Chunks until the server gives up on the stalled session (at most 24, about 60 MB): no more than it takes.
            for (int chunk = 0; chunk < chunks
                    && Health.listener(Health.root(base), "ready").number("droppedEvents") == droppedBefore; chunk++) {
                written += perChunk;
                // About 5 KB per event: enough bytes to fill the slow client's and the server's socket buffers.
                TestDatabase.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields)"
                        + " SELECT 'ItNote', '" + note + "', 'updated', ARRAY(SELECT 'a_rather_long_field_name_' || f"
                        + " FROM generate_series(1, 200) f) FROM generate_series(1, " + perChunk + ")");
                for (int i = 0; i < perChunk; i++) {
                    JsonObject event = fast.next();
                    assertThat(event.getString("type")).as("the fast client is never told to resync").isEqualTo("event");
                    assertThat(event.getJsonNumber("cursor").longValue()).isGreaterThan(last);
                    last = event.getJsonNumber("cursor").longValue();
                }
            }
            Health.Check health = Health.listener(Health.root(base), "ready");
            System.out.printf("[slow-consumer] after %d events: %s%n", written, health.data());
            assertThat(health.number("droppedEvents")).isGreaterThan(droppedBefore);
            assertThat(health.number("queuedBytes")).as("the stalled session's queue stays within its byte budget")
                    .isLessThanOrEqualTo((8L << 20) + 16 * 1024);
            assertThat(health.number("maxQueuedBytes")).isEqualTo(64L << 20);
            assertThat(health.number("sessions")).isGreaterThanOrEqualTo(2L);

            slow.resume();
            JsonObject resync = null;
            long lastSeen = 0;
            for (int i = 0; i <= written && resync == null; i++) {
                JsonObject message = slow.next();
                if (message.getString("type").equals("resync_required")) {
                    resync = message;
                } else {
                    assertThat(message.getString("type")).isEqualTo("event");
                    lastSeen = message.getJsonNumber("cursor").longValue();
                }
            }
            assertThat(resync).isNotNull();
            assertThat(resync.getString("reason")).isEqualTo("slow_consumer");
            assertThat(resync.getString("subscription_id")).isEqualTo("n");
            assertThat(resync.getJsonNumber("cursor").longValue()).isGreaterThan(lastSeen).isLessThanOrEqualTo(last);

            StoreClient.as("alice", base).post("api/it/capture/publish-note-change?id=" + note, null);
            JsonObject after;
            do {
                after = slow.next();
                assertThat(after.getString("type")).isEqualTo("event");
                assertThat(after.getJsonNumber("cursor").longValue()).isGreaterThan(resync.getJsonNumber("cursor").longValue());
            } while (!after.getJsonArray("changed_fields").getString(0).equals("text"));
        }
    }
}
