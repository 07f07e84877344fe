package io.objectstreams.it.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Jvm;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.SseClient.Frame;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Server-Sent Events transport ({@code streams/subscribe/{model}}) on a real server, with a raw HTTP client:
 * frames byte for byte, refusals, resume with {@code Last-Event-ID}, the lifetime's close, clean disconnects and
 * the visibility matrix (G8–G10, G12).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SseIT {

    private static final String MODEL = "store.CustomerOrder";

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    private long order(String user, String total) {
        return StoreClient.as(user, base).createOrder("{\"status\":\"open\",\"total\":" + total + "}");
    }

    private void touch(String user, long order, String note) {
        assertThat(StoreClient.as(user, base).patch("api/orders/" + order, "{\"note\":\"" + note + "\"}").status()).isEqualTo(200);
    }

    @Test
    void framesAndHeadersAreExactAndTheDataIsWhatTheWebSocketSends() throws Exception {
        long id = order("alice", "5");
        try (SseClient sse = SseClient.open(base, "alice", MODEL + "?pk=" + id + "&heartbeat=1s");
             StreamClient ws = StreamClient.connect(base, "alice")) {
            assertThat(sse.status()).isEqualTo(200);
            assertThat(sse.header("Content-Type")).startsWith("text/event-stream");
            assertThat(sse.header("Cache-Control")).isEqualTo("no-cache");
            assertThat(sse.header("X-Accel-Buffering")).isEqualTo("no");

            Frame preamble = sse.nextFrame(10);
            assertThat(preamble.raw()).startsWith("retry: 2000\n: subscription object " + MODEL + " " + id + ", closes at ")
                    .endsWith(" (lifetime 30m), heartbeat every 1s\n\n");
            Frame subscribed = sse.next(10);
            long cursor = subscribed.data().getJsonNumber("cursor").longValue();
            assertThat(subscribed.raw()).isEqualTo("id: " + cursor + "\nevent: subscribed\ndata: {\"type\":\"subscribed\","
                    + "\"subscription_id\":\"sub_1\",\"kind\":\"object\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id
                    + "\",\"cursor\":" + cursor + "}\n\n");
            assertThat(ws.send("{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + id + "\"}").next().getString("type"))
                    .isEqualTo("subscribed");

            touch("alice", id, "framed");
            // The order's creation may still arrive live on either transport (it can be newer than the start).
            Frame event = sse.next(10);
            while (!event.data().getJsonArray("changed_fields").toString().contains("note")) {
                event = sse.next(10);
            }
            JsonObject overWebSocket = ws.nextChangeOf("note");
            String line = event.raw().substring(event.raw().indexOf("data: ") + 6, event.raw().length() - 2);
            assertThat(event.raw()).isEqualTo("id: " + overWebSocket.getJsonNumber("cursor") + "\nevent: event\ndata: " + line + "\n\n");
            assertThat(line).doesNotContain("\n");
            assertThat(event.data()).as("the same message as on the WebSocket").isEqualTo(overWebSocket);

            List<String> comments = new ArrayList<>();
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < until && !comments.contains(": ping\n\n")) {
                Frame frame = sse.nextFrame(5);
                if (frame != null && frame.isComment()) {
                    comments.add(frame.raw());
                }
            }
            assertThat(comments).as("a heartbeat").contains(": ping\n\n");
        }
    }

    @Test
    void everyRefusalComesBeforeTheStreamWithItsStatusAndCode() throws Exception {
        long alices = order("alice", "7");
        long bobs = order("bob", "7");
        refused("alice", "no.Such?pk=1", Map.of(), 404, "model_not_found");
        JsonObject hidden = refused("alice", MODEL + "?pk=" + bobs, Map.of(), 404, "not_found");
        JsonObject missing = refused("alice", MODEL + "?pk=999999999", Map.of(), 404, "not_found");
        assertThat(hidden.getString("message").replace(Long.toString(bobs), "N"))
                .as("a hidden object looks like a missing one").isEqualTo(missing.getString("message").replace("999999999", "N"));
        refused(null, MODEL + "?pk=" + alices, Map.of(), 401, "authentication_required");
        refused("alice", MODEL + "?kind=set", Map.of(), 400, "invalid_kind");
        refused("alice", MODEL + "?kind=object", Map.of(), 400, "invalid_kind");
        refused("alice", MODEL + "?kind=model&pk=1", Map.of(), 400, "invalid_kind");
        refused("alice", MODEL + "?filter.status=open", Map.of(), 400, "invalid_kind");
        JsonObject filter = refused("alice", MODEL + "?kind=filter&filter.secret=1&filter.total__gte=lots", Map.of(), 400, "invalid_filter");
        assertThat(filter.getJsonObject("details").keySet()).contains("secret", "total__gte");
        refused("alice", MODEL + "?kind=filter&filter.total__gte=1e999999999", Map.of(), 400, "invalid_filter");
        refused("alice", MODEL + "?pk=" + alices + "&heartbeat=0s", Map.of(), 400, "invalid_heartbeat");
        refused("alice", MODEL + "?pk=" + alices + "&heartbeat=6m", Map.of(), 400, "invalid_heartbeat");
        refused("alice", MODEL + "?pk=" + alices + "&heartbeat=soon", Map.of(), 400, "invalid_heartbeat");
        refused("alice", MODEL + "?pk=" + alices + "&lifetime=5h", Map.of(), 400, "invalid_lifetime");
        refused("alice", MODEL + "?pk=" + alices + "&cursor=-1", Map.of(), 400, "invalid_cursor");
        refused("alice", MODEL + "?pk=" + alices + "&cursor=99999999999999999999", Map.of(), 400, "invalid_cursor");
        refused("alice", MODEL + "?pk=" + alices, Map.of("Last-Event-ID", "abc"), 400, "invalid_cursor");
        refused("alice", MODEL + "?pk=" + alices + "&cursor=" + Long.MAX_VALUE, Map.of(), 400, "invalid_cursor");
        refused("alice", MODEL + "?pk=" + alices + "&colour=red", Map.of(), 400, "unknown_parameter");
        refused("alice", MODEL + "?pk=" + alices + "&heartbeat=1s&heartbeat=2s", Map.of(), 400, "invalid_heartbeat");
        try (SseClient fine = SseClient.open(base, "alice", MODEL + "?pk=" + alices + "&heartbeat=2&lifetime=4h")) {
            assertThat(fine.status()).as("plain seconds and the largest lifetime").isEqualTo(200);
        }
    }

    private JsonObject refused(String user, String query, Map<String, String> headers, int status, String code) {
        try (SseClient sse = SseClient.open(base, user, query, headers)) {
            assertThat(sse.status()).as(query).isEqualTo(status);
            JsonObject body = sse.error();
            assertThat(body.getString("code")).as(query).isEqualTo(code);
            assertThat(body.getString("message")).isNotBlank();
            return body;
        }
    }

    @Test
    void aStreamResumedWithLastEventIdGetsExactlyWhatItMissedInOrder() throws Exception {
        long id = order("alice", "8");
        String lastId;
        try (SseClient sse = SseClient.open(base, "alice", MODEL + "?heartbeat=1s&pk=" + id)) {
            assertThat(sse.next(10).event()).isEqualTo("subscribed");
            touch("alice", id, "seen 1");
            touch("alice", id, "seen 2");
            // The order's creation may still arrive live (it can be newer than the subscription's start).
            List<String> seen = new ArrayList<>();
            while (seen.size() < 2) {
                Frame frame = sse.next(10);
                if (frame.data().getJsonArray("changed_fields").toString().contains("note")) {
                    seen.add(frame.id());
                }
            }
            lastId = seen.get(1);
        }
        List<Long> missed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            touch("alice", id, "missed " + i);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.assignedThrough() > 0);
        try (SseClient resumed = SseClient.open(base, "alice", MODEL + "?heartbeat=1s&pk=" + id, Map.of("Last-Event-ID", lastId))) {
            assertThat(resumed.next(10).event()).isEqualTo("subscribed");
            for (int i = 0; i < 3; i++) {
                Frame event = resumed.next(10);
                assertThat(event.event()).isEqualTo("event");
                missed.add(Long.valueOf(event.id()));
            }
            assertThat(missed).isSorted().doesNotHaveDuplicates().allSatisfy(c -> assertThat(c).isGreaterThan(Long.parseLong(lastId)));
            assertThat(resumed.drain(1_000)).as("nothing else").isEmpty();
        }
    }

    /**
     * Issue 40 (a follow-up of issue 26), G10: a stream whose subscription hears nothing while others write never
     * advanced the browser's {@code Last-Event-ID}, so a reconnect after a long quiet replayed (or resynced over)
     * everything since its last event. Its heartbeat now carries the cursor the server has sent it everything through,
     * as an {@code id:} with no data, which a browser keeps; a resume from it is quiet.
     */
    @Test
    void anIdleStreamsHeartbeatCarriesTheCursorItWasBroughtUpToAndAResumeFromItIsQuiet() throws Exception {
        long id = order("alice", "5");
        String beatId;
        try (SseClient sse = SseClient.open(base, "alice", MODEL + "?pk=" + id + "&heartbeat=1s")) {
            assertThat(sse.next(10).event()).isEqualTo("subscribed");
            long bobs = order("bob", "6");
            touch("bob", bobs, "not alice's");
            Outbox.awaitFannedOut(base);
            long written = TestDatabase.assignedThrough();
            Frame beat = null;
            long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (System.nanoTime() < until && beat == null) {
                Frame frame = sse.nextFrame(5);
                if (frame != null && frame.isComment() && frame.id() != null && Long.parseLong(frame.id()) >= written) {
                    beat = frame;
                }
            }
            assertThat(beat).as("a heartbeat carrying a cursor at or past bob's write, " + written).isNotNull();
            assertThat(beat.raw()).isEqualTo("id: " + beat.id() + "\n: ping\n\n");
            beatId = beat.id();
        }
        try (SseClient resumed = SseClient.open(base, "alice", MODEL + "?pk=" + id + "&heartbeat=1s",
                Map.of("Last-Event-ID", beatId))) {
            Frame subscribed = resumed.next(10);
            assertThat(subscribed.event()).isEqualTo("subscribed");
            assertThat(subscribed.id()).isEqualTo(beatId);
            assertThat(resumed.drain(1_500)).as("no replay, no resync").isEmpty();
        }
    }

    /**
     * Issue 26, item 6: the {@code subscribed} frame of a resumed stream is followed by its replay, so its {@code id:}
     * is the client's own cursor, never the registration cursor: a stream that ends right after it resumes from
     * there and still gets the replay.
     */
    @Test
    void theSubscribedFrameOfAResumedStreamCarriesTheClientsCursorAsItsId() throws Exception {
        long id = order("alice", "6");
        Outbox.awaitAssigned(base);
        long from = TestDatabase.assignedThrough();
        for (int i = 0; i < 3; i++) {
            touch("alice", id, "after the cursor " + i);
        }
        Outbox.awaitAssigned(base);
        String query = MODEL + "?heartbeat=1s&pk=" + id;
        for (int attempt = 0; attempt < 2; attempt++) {
            try (SseClient resumed = SseClient.open(base, "alice", query, Map.of("Last-Event-ID", Long.toString(from)))) {
                Frame subscribed = resumed.next(10);
                assertThat(subscribed.event()).isEqualTo("subscribed");
                assertThat(subscribed.id()).as("the client's own cursor").isEqualTo(Long.toString(from));
                if (attempt == 0) {
                    continue; // the stream ends between subscribed and its replay: the resume below loses nothing
                }
                List<Long> replayed = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Frame event = resumed.next(10);
                    assertThat(event.event()).isEqualTo("event");
                    replayed.add(Long.valueOf(event.id()));
                }
                assertThat(replayed).isSorted().allSatisfy(c -> assertThat(c).isGreaterThan(from));
            }
        }
    }

    @Test
    void theLifetimeEndsTheStreamAndAResumeHasNoGap() throws Exception {
        long id = order("alice", "9");
        long endedByLifetime = ended("lifetime");
        String lastId;
        try (SseClient sse = SseClient.open(base, "alice", MODEL + "?pk=" + id + "&lifetime=2s&heartbeat=1s")) {
            lastId = sse.next(10).id();
            Frame last = null;
            for (Frame frame = sse.nextFrame(10); frame != null; frame = sse.nextFrame(10)) {
                last = frame;
            }
            assertThat(last).isNotNull();
            assertThat(last.raw()).isEqualTo(": closing, reconnect\n\n");
            assertThat(sse.ended()).isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> ended("lifetime") == endedByLifetime + 1);
        touch("alice", id, "while reconnecting");
        try (SseClient resumed = SseClient.open(base, "alice", MODEL + "?heartbeat=1s&pk=" + id, Map.of("Last-Event-ID", lastId))) {
            assertThat(resumed.next(10).event()).isEqualTo("subscribed");
            Frame event = resumed.next(10);
            assertThat(event.event()).isEqualTo("event");
            assertThat(event.data().getJsonArray("changed_fields").getString(0)).isEqualTo("note");
        }
    }

    /**
     * Also a client that leaves is not an error: nothing is logged at WARNING or above meanwhile. (This does not
     * reproduce WildFly's UT005088 of docs/reliability.md, defect 5: with the logger filter removed it still passed;
     * the soak's log check, which found that one, remains its test.)
     */
    @Test
    void twoHundredConnectionsOpenedAndDroppedLeaveNothingBehind() throws Exception {
        long id = order("alice", "10");
        // Streams of the other tests are released at their next heartbeats (1 s here).
        await().atMost(Duration.ofSeconds(30)).until(() -> sseSessions() == 0);
        assertThat(StoreClient.as("carol", base).post("api/it/log/watch", null).status()).isEqualTo(200);
        int before = 0;
        long endedBefore = endedByCause().values().stream().mapToLong(Long::longValue).sum();
        List<SseClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                SseClient client = SseClient.open(base, i % 2 == 0 ? "alice" : "carol", MODEL + "?pk=" + id + "&heartbeat=1s");
                assertThat(client.next(10).event()).isEqualTo("subscribed");
                clients.add(client);
            }
            assertThat(sseSessions()).isEqualTo(before + 200);
        } finally {
            clients.forEach(SseClient::close);
        }
        long dropped = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> sseSessions() == before);
        System.out.printf("[sse] 200 dropped connections released within %d ms (heartbeat 1 s); ended by cause: %s%n",
                (System.nanoTime() - dropped) / 1_000_000, endedByCause());
        assertThat(endedByCause().values().stream().mapToLong(Long::longValue).sum() - endedBefore)
                .as("every ended stream is counted with its cause").isGreaterThanOrEqualTo(200);
        assertThat(StoreClient.as("carol", base).post("api/it/log/probe", null).body().asJsonArray())
                .as("logged at WARNING or above while 200 clients left (the probe shows the watch works)")
                .map(v -> ((jakarta.json.JsonString) v).getString())
                .containsExactly("WARNING io.objectstreams.it.probe: log watch probe");
        assertThat(Health.listener(Health.root(base), "ready").number("subscriptions"))
                .as("no subscription left behind").isLessThan(200);
        // Nor anything that still references a released stream: a cancelled timer task stays queued in the
        // container's scheduler until its time, and a per-stream lifetime task held each stream for 30 minutes.
        // A stream is forgotten right after the engine released it. The container may still hold the last few
        // through request objects it recycles (Payara kept 3 in the full suite), but not one per stream: before
        // the fix, all 200 were held for their 30-minute lifetime.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                Jvm.liveInstances(base, "io.objectstreams.web.sse.SseSubscriber"))
                .as("SSE streams still in the server's heap after all 200 were released").isLessThan(10));
    }

    /**
     * A client that leaves without a word is noticed when a write to it fails: its first heartbeat after it left
     * may still be taken by the socket, the second fails. On Payara the second heartbeat's failure was not reported
     * to the writer (Grizzly closes the connection and only the next write throws), so each stream was held until
     * its third heartbeat; the stream now looks at its connection again one tick after each heartbeat.
     */
    @Test
    void aClientThatLeavesIsReleasedAtItsSecondHeartbeat() throws Exception {
        long id = order("alice", "11");
        await().atMost(Duration.ofSeconds(30)).until(() -> sseSessions() == 0);
        long endedBefore = ended("write_failed") + ended("async_error") + ended("completed_by_container");
        long firstOpened = System.nanoTime();
        List<SseClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                SseClient client = SseClient.open(base, "alice", MODEL + "?pk=" + id + "&heartbeat=5s");
                assertThat(client.next(10).event()).isEqualTo("subscribed");
                clients.add(client);
            }
        } finally {
            clients.forEach(SseClient::close);
        }
        // Two heartbeats (10 s) after the last one opened, with 2 s of slack, and before the first one's third
        // heartbeat (15 s after it opened).
        long openedIn = (System.nanoTime() - firstOpened) / 1_000_000;
        await().atMost(Duration.ofMillis(Math.min(12_000, 14_500 - openedIn))).pollInterval(Duration.ofMillis(100))
                .until(() -> sseSessions() == 0);
        System.out.printf("[sse] 20 streams that left were released %d ms after the first opened (heartbeat 5 s)%n",
                (System.nanoTime() - firstOpened) / 1_000_000);
        assertThat(ended("write_failed") + ended("async_error") + ended("completed_by_container") - endedBefore)
                .as("streams noticed gone").isEqualTo(20);
    }

    /**
     * A stream that stops being read is told to resync ({@code slow_consumer}) once its queue passes its byte
     * budget, then ends; resuming from that frame's id carries on live. A WebSocket client of the same object,
     * which keeps reading, paces the writes and is never told to resync.
     */
    @Test
    void aStalledStreamIsToldToResyncThenEndsAndResumesFromThatCursor() throws Exception {
        String note = StoreClient.as("alice", base).post("api/it/capture/non-streamed", null).object().getString("result");
        int chunks = 24;
        int perChunk = 500;
        long endedSlow = ended("slow_consumer");
        String resyncId;
        try (SseClient slow = SseClient.open(base, "alice", "ItNote?pk=" + note + "&heartbeat=5m");
             StreamClient fast = StreamClient.connect(base, "bob")) {
            assertThat(slow.next(10).event()).isEqualTo("subscribed");
            assertThat(fast.send("{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\"}").next()
                    .getString("type")).isEqualTo("subscribed");
            slow.pause();
            long last = 0;
            long droppedBefore = Health.listener(Health.root(base), "ready").number("droppedEvents");
            // Chunks until the server gives up on the stalled stream (at most 24, about 60 MB): no more than it takes.
            for (int chunk = 0; chunk < chunks
                    && Health.listener(Health.root(base), "ready").number("droppedEvents") == droppedBefore; chunk++) {
                // About 5 KB per event: enough to fill the client's and the server's socket buffers, then the budget.
                TestDatabase.execute("INSERT INTO streams_outbox (model, subject_pk, op, changed_fields)"
                        + " SELECT 'ItNote', '" + note + "', 'updated', ARRAY(SELECT 'a_rather_long_field_name_' || f"
                        + " FROM generate_series(1, 200) f) FROM generate_series(1, " + perChunk + ")");
                for (int i = 0; i < perChunk; i++) {
                    JsonObject event = fast.next();
                    assertThat(event.getString("type")).isEqualTo("event");
                    last = event.getJsonNumber("cursor").longValue();
                }
            }
            slow.resume();
            Frame resync = null;
            for (Frame frame = slow.next(30); frame != null; frame = slow.next(30)) {
                if (frame.event().equals("resync_required")) {
                    resync = frame;
                    break;
                }
                assertThat(frame.event()).isEqualTo("event");
            }
            assertThat(resync).as("told to resync").isNotNull();
            assertThat(resync.data().getString("reason")).isEqualTo("slow_consumer");
            assertThat(Long.parseLong(resync.id())).isLessThanOrEqualTo(last);
            assertThat(slow.next(10)).as("then the stream ends").isNull();
            assertThat(slow.ended()).isTrue();
            resyncId = resync.id();
            await().atMost(Duration.ofSeconds(5)).until(() -> ended("slow_consumer") == endedSlow + 1);
        }
        try (SseClient resumed = SseClient.open(base, "alice", "ItNote?heartbeat=1s&pk=" + note, Map.of("Last-Event-ID", resyncId))) {
            assertThat(resumed.next(10).event()).isEqualTo("subscribed");
            StoreClient.as("alice", base).post("api/it/capture/publish-after-native-update?id=" + note, null);
            // What came after the resync's cursor is replayed, or, past streams.replay-limit, resynced; then live.
            Frame after;
            do {
                after = resumed.next(30);
                assertThat(after).isNotNull();
                assertThat(Long.parseLong(after.id())).isGreaterThanOrEqualTo(Long.parseLong(resyncId));
                if (after.event().equals("resync_required")) {
                    assertThat(after.data().getString("reason")).isEqualTo("object_replay_limit_exceeded");
                    continue;
                }
                assertThat(after.event()).isEqualTo("event");
            } while (!after.event().equals("event") || !after.data().getJsonArray("changed_fields").getString(0).equals("text"));
        }
    }

    /** SSE streams ended since start, by cause, from the operators' status. */
    private Map<String, Long> endedByCause() {
        StoreClient.Reply status = StoreClient.as("carol", base).get("streams/admin/status");
        assertThat(status.status()).as(status.raw()).isEqualTo(200);
        Map<String, Long> byCause = new java.util.TreeMap<>();
        status.object().getJsonObject("transports").getJsonObject("sse").getJsonObject("endedByCause")
                .forEach((cause, count) -> byCause.put(cause, Long.parseLong(count.toString())));
        return byCause;
    }

    private long ended(String cause) {
        return endedByCause().getOrDefault(cause, 0L);
    }

    private int sseSessions() {
        return (int) Health.listener(Health.root(base), "ready").number("sseSessions");
    }

    @Test
    void eachUserSeesOverSseWhatTheyMayReadForEveryKind() throws Exception {
        String total = ThreadLocalRandom.current().nextInt(100_000, 999_999) + ".11";
        long alices = order("alice", total);
        long bobs = order("bob", total);
        // Both creations fanned out first: a stream opened later sees only the changes below.
        Outbox.awaitFannedOut(base);
        String filter = MODEL + "?kind=filter&heartbeat=1s&filter.total=" + total;
        String model = MODEL + "?kind=model&heartbeat=1s";
        Map<String, List<Long>> expected = Map.of("alice", List.of(alices), "bob", List.of(bobs), "carol", List.of(alices, bobs));
        List<SseClient> open = new ArrayList<>();
        try {
            Map<String, List<SseClient>> streams = new java.util.HashMap<>();
            for (String user : List.of("alice", "bob", "carol")) {
                List<SseClient> mine = new ArrayList<>();
                for (String query : List.of(filter, model)) {
                    SseClient client = SseClient.open(base, user, query);
                    assertThat(client.status()).isEqualTo(200);
                    assertThat(client.next(10).event()).isEqualTo("subscribed");
                    mine.add(client);
                }
                for (long order : List.of(alices, bobs)) {
                    SseClient object = SseClient.open(base, user, MODEL + "?heartbeat=1s&pk=" + order);
                    assertThat(object.status()).as(user + " on order " + order)
                            .isEqualTo(expected.get(user).contains(order) ? 200 : 404);
                    if (object.status() == 200) {
                        assertThat(object.next(10).event()).isEqualTo("subscribed");
                        mine.add(object);
                    } else {
                        object.close();
                    }
                }
                open.addAll(mine);
                streams.put(user, mine);
            }
            touch("alice", alices, "matrix");
            touch("bob", bobs, "matrix");
            // Every stream reads on its own thread: one wait covers them all, then each is drained of what came.
            Thread.sleep(1_500);
            for (String user : List.of("alice", "bob", "carol")) {
                List<SseClient> mine = streams.get(user);
                for (int i = 0; i < mine.size(); i++) {
                    List<Long> seen = new ArrayList<>();
                    for (Frame frame : mine.get(i).drain(100)) {
                        assertThat(frame.data().getString("list_action")).isEqualTo("changed");
                        seen.add(Long.valueOf(frame.data().getJsonObject("subject").getString("pk")));
                    }
                    // The filter and model streams (first two) see every order the user may read; each object
                    // stream its own order.
                    List<Long> owed = i < 2 ? expected.get(user) : List.of(expected.get(user).get(i - 2));
                    assertThat(seen).as(user + " stream " + i).containsExactlyInAnyOrderElementsOf(owed);
                }
            }
        } finally {
            open.forEach(SseClient::close);
        }
    }
}
