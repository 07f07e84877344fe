package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import jakarta.json.JsonObject;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Never silent (G10): when the fan-out of a batch cannot be decided (here the model's visibility policy throws),
 * every subscription that may have been owed an event of it gets {@code resync_required} with reason
 * {@code delivery_failed}, before anything later; then delivery carries on.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class FanOutFailureIT {

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    @AfterEach
    void healPolicy() {
        StoreClient.as("alice", base).post("api/it/visibility-fault?failures=0&delayMillis=0&deliveryDelayMillis=0&hide=0&failingViewer=", null);
    }

    /**
     * Issue 26, item 9 (G10): an application's observer of {@code StreamBatch} that throws must not keep the batch
     * from the subscribers. The transports observe first, so they have it whatever other observers do.
     */
    @Test
    void anApplicationObserverThatThrowsDoesNotKeepTheBatchFromSubscribers() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        long order = alice.createOrder("{\"status\":\"open\",\"total\":9}");
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            client.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\"" + order + "\"}");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");
            for (int i = 0; i < 3; i++) {
                alice.post("api/it/delivered/observer-failures?failures=1", null);
                alice.patch("api/orders/" + order, "{\"note\":\"observed " + i + "\"}");
                JsonObject message = client.nextChangeOf("note");
                assertThat(message.getString("type")).as("write %d: %s", i, message).isEqualTo("event");
            }
        } finally {
            alice.post("api/it/delivered/observer-failures?failures=0", null);
        }
    }

    @Test
    void aPolicyThatThrowsForOneBatchGetsEverySubscriptionItConcernedToResyncBeforeAnythingLater() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        String other = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            client.send("{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\",\"subscription_id\":\"one\"}");
            client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"ItNote\",\"subscription_id\":\"all\"}");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");
            long failuresBefore = Health.listener(Health.root(base), "ready").number("failedFanOuts");

            alice.post("api/it/visibility-fault?failures=1", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            Map<String, JsonObject> resyncs = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                JsonObject message = client.next();
                assertThat(message.getString("type")).as("nothing before the resync: %s", message).isEqualTo("resync_required");
                resyncs.put(message.getString("subscription_id"), message);
            }
            assertThat(resyncs).containsOnlyKeys("one", "all");
            long resyncCursor = resyncs.get("one").getJsonNumber("cursor").longValue();
            assertThat(resyncs.values()).allSatisfy(r -> {
                assertThat(r.getString("reason")).isEqualTo("delivery_failed");
                assertThat(r.getJsonNumber("cursor").longValue()).isEqualTo(resyncCursor);
            });

            // The policy works again: the next changes arrive, after the resync's cursor.
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            alice.post("api/it/capture/publish-after-native-update?id=" + other, null);
            Map<String, Integer> events = new HashMap<>();
            for (int i = 0; i < 3; i++) {
                JsonObject event = client.next();
                assertThat(event.getString("type")).isEqualTo("event");
                assertThat(event.getJsonNumber("cursor").longValue()).isGreaterThan(resyncCursor);
                events.merge(event.getString("subscription_id"), 1, Integer::sum);
            }
            assertThat(events).containsEntry("one", 1).containsEntry("all", 2);
            assertThat(Health.listener(Health.root(base), "ready").number("failedFanOuts")).isGreaterThan(failuresBefore);
        }
    }

    /**
     * Issue 27: viewers of one (model, filter) are decided together, but a policy that fails for one viewer must not
     * leave the others undecided. bob's predicate throws on every batch: bob is told to resync, alice gets her event.
     */
    @Test
    void aPolicyThatFailsForOneViewerLeavesTheOtherViewersDecided() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        // A subscription starts after the last batch fanned out: an earlier test's write still on its way would reach
        // it live, ahead of this one's (seen in CI under load: alice got the previous note first).
        Outbox.awaitFannedOut(base);
        try (StreamClient aliceClient = StreamClient.connect(base, "alice");
             StreamClient bobClient = StreamClient.connect(base, "bob")) {
            for (StreamClient client : List.of(aliceClient, bobClient)) {
                client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"ItNote\",\"subscription_id\":\"all\"}");
                assertThat(client.next().getString("type")).isEqualTo("subscribed");
            }
            alice.post("api/it/visibility-fault?failingViewer=bob", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            JsonObject toAlice = aliceClient.next();
            assertThat(toAlice.getString("type")).as("alice: %s", toAlice).isEqualTo("event");
            assertThat(toAlice.getJsonObject("subject").getString("pk")).isEqualTo(note);
            JsonObject toBob = bobClient.next();
            assertThat(toBob.getString("type")).as("bob: %s", toBob).isEqualTo("resync_required");
            assertThat(toBob.getString("reason")).isEqualTo("delivery_failed");
        }
    }

    /**
     * After a resync the client holds what it refetched, so the server must classify later events against the
     * same set: a note that became visible in the batch whose fan-out failed, and is hidden again later, is owed
     * {@code removed} (the soak's status filter kept orders it no longer matched without this).
     */
    @Test
    void aSetResyncedAfterAFailedBatchTellsLaterRemovalsOfWhatTheBatchAdded() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        String other = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        alice.post("api/it/visibility-fault?hide=" + note, null);
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"ItNote\",\"subscription_id\":\"all\"}");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");

            // The note becomes visible in a batch whose visibility check fails: the client is told to refetch, and
            // its refetch includes the note.
            alice.post("api/it/visibility-fault?failures=1", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            JsonObject resync = client.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("reason")).isEqualTo("delivery_failed");

            assertRemovedBeforeTheNextChange(alice, client, note, other);
        }
    }

    /**
     * The same when the set cannot be read again at once either (the policy fails twice): the subscription skips
     * what it cannot classify, and once its set is read again (at the next batch) it is told to resync a second
     * time, before any later event, so the client's refetch and the server's set agree again.
     */
    @Test
    void aSetThatCouldNotBeReadAgainAtOnceIsResyncedAgainOnceItIs() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        String other = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        alice.post("api/it/visibility-fault?hide=" + note, null);
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"ItNote\",\"subscription_id\":\"all\"}");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");

            alice.post("api/it/visibility-fault?failures=2", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            JsonObject first = client.next();
            assertThat(first.getString("type")).isEqualTo("resync_required");
            assertThat(first.getString("reason")).isEqualTo("delivery_failed");

            // The client refetched (the note is visible). The next batch reads the set again and tells the client to
            // resync once more, before that batch's event; the client refetches again, and the note is still visible.
            alice.post("api/it/capture/publish-after-native-update?id=" + other, null);
            List<JsonObject> received = untilEventAt(client, maxCursorOf(other));
            assertThat(received).as("resynced again once the set was read: %s", received)
                    .filteredOn(m -> m.getString("type").equals("resync_required")).isNotEmpty()
                    .allSatisfy(m -> assertThat(m.getString("reason")).isEqualTo("delivery_failed"));

            assertRemovedBeforeTheNextChange(alice, client, note, other);
        }
    }

    /** The messages up to and including the event at {@code cursor}. */
    private static List<JsonObject> untilEventAt(StreamClient client, long cursor) throws InterruptedException {
        List<JsonObject> received = new ArrayList<>();
        JsonObject message;
        do {
            message = client.next();
            received.add(message);
        } while (!(message.getString("type").equals("event") && message.getJsonNumber("cursor").longValue() == cursor));
        return received;
    }

    /** Hides {@code note} and changes it, then changes {@code other}: the note's removal must come first. */
    private static void assertRemovedBeforeTheNextChange(StoreClient alice, StreamClient client, String note, String other)
            throws InterruptedException {
        alice.post("api/it/visibility-fault?hide=" + note, null);
        alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
        alice.post("api/it/capture/publish-after-native-update?id=" + other, null);
        JsonObject next = client.next();
        assertThat(next.getString("type")).as("%s", next).isEqualTo("event");
        assertThat(next.getJsonObject("subject").getString("pk")).as("the hidden note leaves the client's set first: %s", next).isEqualTo(note);
        assertThat(next.getString("list_action")).isEqualTo("removed");
    }

    /**
     * Replay never vouches for visibility it did not check (G8, G10). A client resumes an object subscription
     * while delivery is held up; meanwhile the object stops being visible to it and changes again. The update
     * that came with the loss of visibility must not reach the client as {@code changed}: the resume is refused
     * ({@code not_found}) or that update is decided live, with a fresh visibility check.
     */
    @Test
    void replayDoesNotReportAsChangedAnUpdateAfterWhichTheObjectIsNoLongerVisible() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        try (StreamClient watcher = StreamClient.connect(base, "alice");
             StreamClient resumed = StreamClient.connect(base, "alice")) {
            String subscribe = "{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\",\"subscription_id\":\"n\"";
            long cursor = watcher.send(subscribe + "}").next().getJsonNumber("cursor").longValue();

            // The watcher's subscription makes every change of the note cost a (slow) policy query on delivery.
            alice.post("api/it/visibility-fault?deliveryDelayMillis=2500", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            Thread.sleep(500);
            resumed.send(subscribe + ",\"cursor\":" + cursor + "}");
            Thread.sleep(500);
            alice.post("api/it/visibility-fault?deliveryDelayMillis=2500&hide=" + note, null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            long lost = maxCursorOf(note);

            List<JsonObject> received = new ArrayList<>();
            JsonObject first = resumed.next();
            received.add(first);
            received.addAll(resumed.drain(7_000));
            assertThat(received).as("no 'changed' for the update after which the note is hidden: %s", received)
                    .noneMatch(m -> m.getString("type").equals("event") && m.getJsonNumber("cursor").longValue() == lost
                            && m.getString("list_action", "changed").equals("changed") && !m.getString("op").equals("deleted"));
            assertThat(first.getString("type")).isIn("error", "subscribed");
            if (first.getString("type").equals("error")) {
                assertThat(first.getString("code")).isEqualTo("not_found");
            }
        }
    }

    /** The cursor of the note's newest outbox row, once assigned. */
    private static long maxCursorOf(String note) {
        return org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> {
            try (var c = io.objectstreams.it.support.TestDatabase.connect(); var s = c.createStatement();
                 var rs = s.executeQuery("SELECT coalesce(cursor, 0) FROM streams_numbered WHERE model = 'ItNote'"
                         + " AND subject_pk = '" + note + "' ORDER BY id DESC LIMIT 1")) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }, cursor -> cursor > 0);
    }
}
