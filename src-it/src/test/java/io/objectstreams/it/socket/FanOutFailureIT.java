package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
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

    @Deployment
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    @AfterEach
    void healPolicy() {
        StoreClient.as("alice", base).post("api/it/visibility-fault?failures=0&delayMillis=0&deliveryDelayMillis=0&hide=0", null);
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
                 var rs = s.executeQuery("SELECT coalesce(cursor, 0) FROM streams_outbox WHERE model = 'ItNote'"
                         + " AND subject_pk = '" + note + "' ORDER BY id DESC LIMIT 1")) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }, cursor -> cursor > 0);
    }
}
