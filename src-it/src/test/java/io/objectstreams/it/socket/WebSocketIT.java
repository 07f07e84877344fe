package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The WebSocket transport with object subscriptions, end to end: a real client, the demo store's writes,
 * its visibility policy (owner or staff), replay after a reconnect, and bad input (G8–G12). The suite sets
 * {@code streams.replay-limit} to 5 so the limit is reachable.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class WebSocketIT {

    private static final String MODEL = "store.CustomerOrder";

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    /**
     * A new order of alice's, once this server has fanned out its creation: a subscription made later starts after
     * the creation's cursor, so its first event is what the test does next, never the creation itself.
     */
    private long aliceOrder() {
        long id = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":5}");
        Outbox.awaitFannedOut(base);
        return id;
    }

    private static String subscribe(long pk, String id) {
        return "{\"op\":\"subscribe\",\"kind\":\"object\",\"model\":\"" + MODEL + "\",\"pk\":\"" + pk
                + "\",\"subscription_id\":\"" + id + "\",\"ordering\":\"-id\",\"shape\":{\"fields\":[\"status\"]}}";
    }

    @Test
    void subscriberReceivesSubscriptionRelativeEventsWithTheOwnFlag() throws Exception {
        long id = aliceOrder();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send(subscribe(id, "o1")).next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getString("subscription_id")).isEqualTo("o1");
            assertThat(subscribed.getString("kind")).isEqualTo("object");
            assertThat(subscribed.getString("model")).isEqualTo(MODEL);
            assertThat(subscribed.getString("pk")).isEqualTo(Long.toString(id));
            assertThat(subscribed.getJsonNumber("cursor").longValue()).isNotNegative();
            assertThat(subscribed.getString("ordering")).isEqualTo("-id");
            assertThat(subscribed.getJsonObject("shape").getJsonArray("fields")).hasSize(1);

            StoreClient.as("carol", base).patch("api/orders/" + id, "{\"status\":\"paid\"}");
            JsonObject byStaff = alice.next();
            assertThat(byStaff.getString("type")).isEqualTo("event");
            assertThat(byStaff.getString("subscription_id")).isEqualTo("o1");
            assertThat(byStaff.getJsonObject("subject").getString("model")).isEqualTo(MODEL);
            assertThat(byStaff.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(id));
            assertThat(byStaff.getString("facet")).isEqualTo("object");
            assertThat(byStaff.getString("op")).isEqualTo("updated");
            assertThat(byStaff.getString("list_action")).isEqualTo("changed");
            assertThat(byStaff.getJsonArray("changed_fields").getString(0)).isEqualTo("status");
            assertThat(byStaff.getBoolean("fetch")).isTrue();
            assertThat(byStaff.getString("transaction_id")).isNotBlank();
            assertThat(byStaff.getBoolean("own")).isFalse();
            assertThat(byStaff.getJsonNumber("cursor").longValue())
                    .isGreaterThan(subscribed.getJsonNumber("cursor").longValue());

            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"note\":\"mine\"}");
            assertThat(alice.next().getBoolean("own")).as("alice's own write").isTrue();

            StoreClient.as("alice", base).delete("api/orders/" + id);
            JsonObject deleted = alice.next();
            assertThat(deleted.getString("op")).isEqualTo("deleted");
            assertThat(deleted.getString("list_action")).isEqualTo("deleted");
            assertThat(deleted.getBoolean("fetch")).isFalse();

            alice.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"o1\"}");
            assertThat(alice.next().getString("type")).isEqualTo("unsubscribed");
        }
    }

    /**
     * Issue 26, item 10: a pk spelled with leading zeros names the same order as its events do ({@code "7"}): the
     * subscription follows it, rather than being confirmed and then silent for good.
     */
    @Test
    void aPkWithLeadingZerosFollowsTheObjectItNames() throws Exception {
        long id = aliceOrder();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send("{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"00" + id
                    + "\",\"subscription_id\":\"zeros\"}").next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getString("pk")).as("spelled as its events spell it").isEqualTo(Long.toString(id));
            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"note\":\"zeros\"}");
            JsonObject event = alice.nextChangeOf("note");
            assertThat(event.getString("subscription_id")).isEqualTo("zeros");
        }
    }

    @Test
    void anObjectTheViewerCannotSeeIsNotFoundAndNeverStreamed() throws Exception {
        long id = aliceOrder();
        try (StreamClient bob = StreamClient.connect(base, "bob");
             StreamClient carol = StreamClient.connect(base, "carol")) {
            assertThat(bob.send(subscribe(id, "x")).next().getString("code")).isEqualTo("not_found");
            assertThat(carol.send(subscribe(id, "x")).next().getString("type")).as("staff sees all").isEqualTo("subscribed");

            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"status\":\"paid\"}");

            assertThat(carol.next().getString("list_action")).isEqualTo("changed");
            assertThat(bob.drain(1500)).isEmpty();
        }
    }

    @Test
    void reconnectingWithACursorReplaysExactlyTheMissedEvents() throws Exception {
        long id = aliceOrder();
        long cursor;
        try (StreamClient first = StreamClient.connect(base, "alice")) {
            first.send(subscribe(id, "r")).next();
            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"status\":\"paid\"}");
            cursor = first.nextChangeOf("status").getJsonNumber("cursor").longValue();
        }
        StoreClient alice = StoreClient.as("alice", base);
        alice.patch("api/orders/" + id, "{\"note\":\"one\"}");
        alice.patch("api/orders/" + id, "{\"note\":\"two\"}");
        alice.patch("api/orders/" + id, "{\"status\":\"shipped\"}");

        try (StreamClient again = StreamClient.connect(base, "alice")) {
            again.send("{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":" + id + ",\"cursor\":" + cursor + "}");
            JsonObject subscribed = again.next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            assertThat(subscribed.getString("subscription_id")).isEqualTo("sub_1");
            List<JsonObject> replayed = List.of(again.next(), again.next(), again.next());
            assertThat(replayed).extracting(m -> m.getJsonArray("changed_fields").getString(0))
                    .containsExactly("note", "note", "status");
            assertThat(replayed).extracting(m -> m.getJsonNumber("cursor").longValue()).isSorted()
                    .allSatisfy(c -> assertThat(c).isGreaterThan(cursor));
            assertThat(again.drain(1000)).as("nothing twice").isEmpty();
        }
    }

    /**
     * A row whose pk cannot be a key of its model (a publish or a trigger that spelled it wrongly) names no object
     * anybody may be told about, so no visibility check can decide it: the model's subscriptions are told to resync
     * (delivery_failed) rather than miss it unseen, live and when a replay crosses it (G10). Object subscriptions of
     * the model name readable pks and are not concerned.
     */
    @Test
    void aRowWhosePkCannotBeAKeyOfItsModelResyncsTheModelsSubscriptionsLiveAndOnReplay() throws Exception {
        long id = aliceOrder();
        long before;
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            JsonObject subscribed = alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}").next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            before = subscribed.getJsonNumber("cursor").longValue();
            assertThat(alice.send(subscribe(id, "one")).next().getString("type")).isEqualTo("subscribed");
            try (java.sql.Connection db = TestDatabase.connect()) {
                io.objectstreams.it.support.OutboxWriters.insert(db, MODEL, "x" + id);
            }
            JsonObject told = alice.poll(30);
            assertThat(told).as("the model subscription is told").isNotNull();
            assertThat(told.getString("type")).isEqualTo("resync_required");
            assertThat(told.getString("reason")).isEqualTo("delivery_failed");
            assertThat(told.getString("subscription_id")).isEqualTo("all");
            assertThat(told.getJsonNumber("cursor").longValue())
                    .isEqualTo(io.objectstreams.it.support.OutboxWriters.cursorOf(MODEL, "x" + id));
            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"note\":\"after\"}");
            List<JsonObject> next = List.of(alice.next(), alice.next());
            assertThat(next).extracting(m -> m.getString("subscription_id")).containsExactlyInAnyOrder("all", "one");
            assertThat(next).extracting(m -> m.getString("type")).containsOnly("event");
        }
        try (StreamClient again = StreamClient.connect(base, "alice")) {
            assertThat(again.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"cursor\":" + before + "}").next().getString("type")).isEqualTo("subscribed");
            JsonObject resync = again.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("reason")).isEqualTo("delivery_failed");
        }
    }

    /**
     * Issue 40 item 4 (G16): a pk that is a key of its model spelled another way ("007" for 7) reached no object,
     * filter or model subscription, and nobody was told. A publish is spelled as capture spells it before the row is
     * written (one that can be no key is refused, named); a row written so by hand is delivered under that spelling.
     */
    @Test
    void aKeySpelledAnotherWayReachesItsSubscriptionsAndOneThatCanBeNoKeyIsRefusedAtPublish() throws Exception {
        long id = aliceOrder();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}").next().getString("type")).isEqualTo("subscribed");
            assertThat(alice.send(subscribe(id, "one")).next().getString("type")).isEqualTo("subscribed");

            StoreClient.Reply published = StoreClient.as("alice", base).post("api/it/capture/publish-order-as?id=" + id
                    + "&pk=00" + id, null);
            assertThat(published.status()).as(published.raw()).isEqualTo(200);
            assertThat(Outbox.since(0).stream().filter(r -> r.pk().equals("00" + id))).as("written as 7, not 007")
                    .isEmpty();
            assertBothTold(alice, id);

            try (java.sql.Connection db = TestDatabase.connect()) {
                io.objectstreams.it.support.OutboxWriters.insert(db, MODEL, "+" + id);
            }
            assertBothTold(alice, id);
        }
        StoreClient.Reply refused = StoreClient.as("alice", base).post("api/it/capture/publish-order-as?id=" + id
                + "&pk=x" + id, null);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.object().getString("code")).isEqualTo("invalid_pk");
    }

    private static void assertBothTold(StreamClient alice, long id) throws InterruptedException {
        List<JsonObject> told = List.of(alice.next(), alice.next());
        assertThat(told).extracting(m -> m.getString("subscription_id")).containsExactlyInAnyOrder("all", "one");
        assertThat(told).extracting(m -> m.getString("type")).containsOnly("event");
        assertThat(told).extracting(m -> m.getJsonObject("subject").getString("pk")).containsOnly(Long.toString(id));
    }

    /**
     * Issue 40 item 12 (G8, G17): carol moves alice's order to bob and bob deletes it, in one batch (cursor assignment
     * held back until both committed). Separate batches tell alice that the order left her set at carol's move
     * ({@code removed}, with the move's own row), and nothing of bob's delete; one batch told her "deleted" with bob's
     * transaction id. Now one batch tells her exactly what separate batches do.
     */
    @Test
    void aHideAndADeleteInOneBatchTellTheFormerViewerOfTheHideAloneAsSeparateBatchesDo() throws Exception {
        long id = aliceOrder();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}").next().getString("type")).isEqualTo("subscribed");
            inOneBatch(() -> {
                assertThat(StoreClient.as("carol", base).patch("api/orders/" + id, "{\"owner\":\"bob\"}").status())
                        .isEqualTo(200);
                assertThat(StoreClient.as("bob", base).delete("api/orders/" + id).status()).isLessThan(300);
            });
            // Read the outbox once alice has been told: the move's row has its cursor by then.
            JsonObject told = alice.next();
            Outbox.Row move = Outbox.since(0).stream()
                    .filter(r -> r.pk().equals(Long.toString(id)) && r.changedFields().contains("owner")).reduce((a, b) -> b)
                    .orElseThrow();
            assertThat(told.getString("type")).isEqualTo("event");
            assertThat(told.getJsonObject("subject").getString("pk")).isEqualTo(Long.toString(id));
            assertThat(told.getString("list_action")).isEqualTo("removed");
            assertThat(told.getString("op")).as("carol's move, not bob's delete: " + told).isEqualTo("updated");
            assertThat(told.getJsonNumber("cursor").longValue()).isEqualTo(move.cursor());
            assertThat(told.getString("transaction_id")).isEqualTo(Long.toString(move.transactionId()));
            assertThat(alice.drain(1000)).as("nothing of bob's delete").isEmpty();
        }
    }

    /**
     * A transfer to alice after an edit by bob, in one batch: she is added by the transfer itself, never by bob's
     * earlier edit, with its fields and transaction (G17).
     */
    @Test
    void aTransferToAViewerAfterAnotherUsersEditInOneBatchAddsItWithTheTransfersOwnDetails() throws Exception {
        long id = StoreClient.as("bob", base).createOrder("{\"status\":\"open\",\"total\":5}");
        Outbox.awaitFannedOut(base);
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}").next().getString("type")).isEqualTo("subscribed");
            inOneBatch(() -> {
                assertThat(StoreClient.as("bob", base).patch("api/orders/" + id, "{\"note\":\"bob's\"}").status())
                        .isEqualTo(200);
                assertThat(StoreClient.as("carol", base).patch("api/orders/" + id, "{\"owner\":\"alice\"}").status())
                        .isEqualTo(200);
            });
            JsonObject added = alice.next();
            assertThat(added.getString("list_action")).isEqualTo("added");
            assertThat(added.getJsonArray("changed_fields").toString()).as(added.toString()).doesNotContain("note");
            long transfer = io.objectstreams.it.support.Outbox.since(0).stream()
                    .filter(r -> r.pk().equals(Long.toString(id)) && r.changedFields().contains("owner"))
                    .mapToLong(r -> r.transactionId()).max().orElseThrow();
            assertThat(added.getString("transaction_id")).isEqualTo(Long.toString(transfer));
            assertThat(alice.drain(1000)).as("nothing else").isEmpty();
        }
    }

    /** Runs {@code writes} while cursor assignment waits, so that their rows are claimed, and fanned out, together. */
    private static void inOneBatch(ThrowingRunnable writes) throws Exception {
        try (java.sql.Connection hold = TestDatabase.connect(); java.sql.Statement lock = hold.createStatement()) {
            hold.setAutoCommit(false);
            lock.execute("SELECT last_cursor FROM streams_cursor_state WHERE id = 1 FOR UPDATE");
            writes.run();
            hold.rollback();
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void missingMoreThanTheReplayLimitAsksForAResync() throws Exception {
        long id = aliceOrder();
        long cursor;
        try (StreamClient first = StreamClient.connect(base, "alice")) {
            cursor = first.send(subscribe(id, "l")).next().getJsonNumber("cursor").longValue();
        }
        StoreClient alice = StoreClient.as("alice", base);
        for (int i = 0; i < 6; i++) {
            alice.patch("api/orders/" + id, "{\"note\":\"n" + i + "\"}");
        }
        // Cursors are assigned after the commits, by the listener: a subscription made before the last write has its
        // cursor starts before it and gets it live, after replaying the others (within the limit). Missing six
        // means six behind the subscription's start.
        Outbox.awaitFannedOut(base);
        try (StreamClient again = StreamClient.connect(base, "alice")) {
            again.send("{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id + "\",\"subscription_id\":\"l\","
                    + "\"cursor\":" + cursor + "}");
            JsonObject subscribed = again.next();
            JsonObject resync = again.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("subscription_id")).isEqualTo("l");
            assertThat(resync.getString("reason")).isEqualTo("object_replay_limit_exceeded");
            assertThat(resync.getJsonNumber("cursor").longValue()).isEqualTo(subscribed.getJsonNumber("cursor").longValue());
            assertThat(again.drain(1000)).as("no partial replay").isEmpty();
        }
    }

    @Test
    void badMessagesGetNamedErrorsAndTheSessionKeepsWorking() throws Exception {
        long id = aliceOrder();
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(error(alice, "this is not json")).isEqualTo("invalid_request");
            assertThat(error(alice, "[1,2]")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"dance\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"model\":\"" + MODEL + "\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"pk\":\"1\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":7,\"pk\":\"1\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"1\",\"colour\":1}"))
                    .isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id
                    + "\",\"search\":\"x\"}")).isEqualTo("unsupported_search");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id
                    + "\",\"cursor\":9000000000}")).isEqualTo("invalid_cursor");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"no.Such\",\"pk\":\"1\"}")).isEqualTo("not_found");
            assertThat(error(alice, "{\"op\":\"unsubscribe\",\"subscription_id\":\"nope\"}")).isEqualTo("not_subscribed");
            assertThat(error(alice, "{\"op\":\"unsubscribe\"}")).isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"kind\":\"set\",\"model\":\"" + MODEL + "\"}"))
                    .isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                    + "\",\"pk\":\"1\"}")).as("pk on a filter").isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"filter\":{}}")).as("filter on a model").isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id
                    + "\",\"filter\":{}}")).as("filter on an object").isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                    + "\",\"filter\":{},\"filters\":{}}")).as("filter and filters").isEqualTo("invalid_request");
            assertThat(error(alice, "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                    + "\",\"filter\":[1]}")).as("filter not an object").isEqualTo("invalid_request");

            assertThat(alice.send(subscribe(id, "d")).next().getString("type")).isEqualTo("subscribed");
            assertThat(error(alice, subscribe(id, "d"))).isEqualTo("duplicate_subscription");

            String oversized = "{\"op\":\"subscribe\",\"model\":\"" + "x".repeat(70_000) + "\",\"pk\":\"1\"}";
            JsonObject tooLarge = alice.send(oversized).next();
            assertThat(tooLarge.getString("code")).isEqualTo("invalid_request");
            assertThat(tooLarge.getString("message")).contains("streams.websocket.max-frame-bytes");

            for (int i = 0; i < 1000; i++) {
                alice.send(i % 2 == 0 ? "{malformed " + i : "[" + i + "]");
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(alice.next().getString("code")).isEqualTo("invalid_request");
            }
            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"status\":\"paid\"}");
            assertThat(alice.next().getString("type")).as("still subscribed and served").isEqualTo("event");
        }
    }

    /**
     * Client mistakes are answered, never logged per frame (G12): Payara Micro logged a WARNING stack trace for
     * each of these (JSON nested deeper than its parser allows, a cursor above the largest long), and a huge
     * exponent in a BigInteger or BigDecimal filter value could cost unbounded CPU and heap.
     */
    @Test
    void aBurstOfMalformedFramesIsAnsweredWithoutAWarningInTheLog() throws Exception {
        long id = aliceOrder();
        StoreClient alice = StoreClient.as("alice", base);
        assertThat(alice.post("api/it/log/watch", null).status()).isEqualTo(200);
        String deep = "[".repeat(2_000) + "]".repeat(2_000);
        String deepObject = "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"1\",\"x\":"
                + "{\"a\":".repeat(2_000) + "1" + "}".repeat(2_001);
        String overflow = "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id
                + "\",\"cursor\":99999999999999999999}";
        String hugeTotal = "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                + "\",\"filter\":{\"total__gte\":\"1e999999999\"}}";
        String hugeTotalNumber = "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                + "\",\"filter\":{\"total__lt\":1e999999999}}";
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(deep, "invalid_request");
        expected.put(deepObject, "invalid_request");
        expected.put(overflow, "invalid_cursor");
        expected.put(hugeTotal, "invalid_filter");
        expected.put(hugeTotalNumber, "invalid_filter");
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            long started = System.nanoTime();
            for (int round = 0; round < 50; round++) {
                for (Map.Entry<String, String> frame : expected.entrySet()) {
                    JsonObject answer = client.send(frame.getKey()).next();
                    assertThat(answer.getString("code")).as(frame.getKey().substring(0, 60)).isEqualTo(frame.getValue());
                }
            }
            System.out.printf("[bad-input] 250 malformed frames answered in %d ms%n", (System.nanoTime() - started) / 1_000_000);
            assertThat(client.send(subscribe(id, "after")).next().getString("type")).isEqualTo("subscribed");
        }
        assertThat(alice.post("api/it/log/probe", null).status()).isEqualTo(200);
        assertThat(alice.get("api/it/log/warnings").body().asJsonArray()).extracting(v -> ((JsonString) v).getString())
                .as("no WARNING or SEVERE line for client mistakes; only the probe that shows the watch works")
                .containsExactly("WARNING io.objectstreams.it.probe: log watch probe");
    }

    /**
     * The viewer is captured per handshake: two connections of one name with different roles, opened at the same
     * time, each keep their own roles (dana is staff or a customer by the password she uses, ItIdentityStore).
     */
    @Test
    void concurrentHandshakesOfOneNameKeepTheirOwnRoles() throws Exception {
        long order = aliceOrder();
        int rounds = 5;
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            for (int round = 0; round < rounds; round++) {
                List<Future<String>> answers = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    String login = i % 2 == 0 ? "dana:staff-pw" : "dana:customer-pw";
                    answers.add(pool.submit(() -> {
                        try (StreamClient dana = StreamClient.connect(base, login)) {
                            JsonObject reply = dana.send(subscribe(order, "s")).next();
                            return login + " " + (reply.getString("type").equals("subscribed") ? "subscribed" : reply.getString("code"));
                        }
                    }));
                }
                for (int i = 0; i < answers.size(); i++) {
                    assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).as("alice's order to staff dana, not to customer dana")
                            .isEqualTo(i % 2 == 0 ? "dana:staff-pw subscribed" : "dana:customer-pw not_found");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Issue 26, item 3 (G12, G15): no policy of this deployment admits anonymous readers, so a connection without a
     * principal could never be told anything. Its handshake is refused with 401 and takes no slot; over SSE too.
     */
    @Test
    void anonymousConnectionsAreRefusedWith401WhenNoPolicyAdmitsAnonymousReaders() throws Exception {
        assertThat(StreamClient.handshakeStatus(base, null, null)).isEqualTo(401);
        try (SseClient sse = SseClient.open(base, null, "ItOwned?kind=object&pk=1")) {
            assertThat(sse.status()).isEqualTo(401);
        }
        String alices = "{\"op\":\"subscribe\",\"model\":\"ItOwned\",\"pk\":\"2\"}";
        String ownerless = "{\"op\":\"subscribe\",\"model\":\"ItOwned\",\"pk\":\"1\"}";
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            assertThat(error(alice, ownerless)).isEqualTo("not_found");
            assertThat(alice.send(alices).next().getString("type")).as("the policy itself works").isEqualTo("subscribed");
        }
    }

    @Test
    void aReadyPolicyLetsAuthenticatedViewersSee() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        String subscribe = "{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\"}";
        try (StreamClient bob = StreamClient.connect(base, "bob")) {
            assertThat(bob.send(subscribe).next().getString("type")).isEqualTo("subscribed");

            alice.post("api/it/capture/publish-note-change?id=" + note, null);

            JsonObject event = bob.next();
            assertThat(event.getString("list_action")).isEqualTo("changed");
            assertThat(event.getJsonArray("changed_fields").getString(0)).isEqualTo("text");
            assertThat(event.getBoolean("own")).isFalse();
        }
    }

    @Test
    void aHandshakeFromAForeignOriginIsRefused() throws Exception {
        String own = base.getProtocol() + "://" + base.getHost() + ":" + base.getPort();
        // Refused: Payara answers 403; WildFly (Undertow) does not upgrade and the request ends in the servlet chain (404).
        assertThat(StreamClient.handshakeStatus(base, "alice", "http://evil.example")).isIn(403, 404);
        assertThat(StreamClient.handshakeStatus(base, "alice", "null")).isIn(403, 404);
        assertThat(StreamClient.handshakeStatus(base, "alice", "http://trusted.example:8000")).as("configured").isEqualTo(101);
        assertThat(StreamClient.handshakeStatus(base, "alice", own)).as("same origin").isEqualTo(101);

        long id = aliceOrder();
        try (StreamClient browser = StreamClient.connectFrom(base, "alice", own)) {
            assertThat(browser.send(subscribe(id, "o")).next().getString("type")).isEqualTo("subscribed");
        }
        assertThat(StoreClient.as("alice", base).get("api/orders/" + id).status()).as("server unaffected").isEqualTo(200);
    }

    private static String error(StreamClient client, String message) throws InterruptedException {
        JsonObject reply = client.send(message).next();
        assertThat(reply.getString("type")).as(reply.toString()).isEqualTo("error");
        assertThat(reply.getString("message")).isNotBlank();
        return reply.getString("code");
    }
}
