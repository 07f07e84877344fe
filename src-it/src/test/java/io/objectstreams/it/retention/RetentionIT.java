package io.objectstreams.it.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.SseClient.Frame;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention (G11) on a real server: pruning by age, by row count and by both, in batches; a dry run; the rows it
 * must never delete, with writers and the assigner running; {@code cursor_pruned} on both transports for a
 * watermark the pruner set; the scheduled task; a lagging instance told to resync; the admin endpoints.
 *
 * <p>The test deployment configures {@code streams.retention.max-age=1d}, {@code interval=2s} and
 * {@code batch-size=1000} (see the failsafe configuration), so the scheduled task runs throughout the suite and
 * only deletes rows a test made two days old.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RetentionIT {

    private static final String FILLER = "it.Retention";
    private static final int BATCH_SIZE = 1000;

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    private record State(long lastCursor, long watermark) {
    }

    @AfterEach
    void healPolicy() {
        StoreClient.as("alice", base).post("api/it/visibility-fault?failures=0&delayMillis=0&deliveryDelayMillis=0&hide=0", null);
    }

    private static State state() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT last_cursor, pruned_through FROM streams_cursor_state")) {
            rs.next();
            return new State(rs.getLong(1), rs.getLong(2));
        }
    }

    private static long scalar(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Inserts committed rows created {@code age} ago (a PostgreSQL interval), and waits for their cursors. */
    private void insert(int rows, String age) throws SQLException {
        TestDatabase.execute("INSERT INTO streams_outbox (model, subject_pk, op, created_at) SELECT '" + FILLER
                + "', g::text, 'updated', now() - interval '" + age + "' FROM generate_series(1, " + rows + ") g");
        awaitAssigned();
    }

    /** Makes every assigned row as old as {@code age}: what earlier tests left must not be the young prefix. */
    private static void ageEverything(String age) {
        TestDatabase.execute("UPDATE streams_outbox SET created_at = now() - interval '" + age + "' WHERE id IN (SELECT outbox_id FROM streams_cursors)");
    }

    private void awaitAssigned() {
        Outbox.awaitAssigned(base);
    }

    private JsonObject prune(String parameters) {
        for (int attempt = 0; ; attempt++) {
            StoreClient.Reply reply = StoreClient.as("carol", base).post("streams/admin/prune?" + parameters, null);
            // The scheduled task may be running its (quick) turn on this instance.
            if (reply.status() == 409 && attempt < 20) {
                sleep(100);
                continue;
            }
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            return reply.object();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aDryRunReportsWhatARealRunThenDeletesByRowCountInBatchesKeepingTheNewestRows() throws Exception {
        insert(2_500, "0 seconds");
        State before = state();
        long target = before.lastCursor() - 100;
        long rowsBefore = scalar("SELECT count(*) FROM streams_numbered");

        JsonObject dry = prune("dryRun=true&maxRows=100");
        assertThat(dry.getBoolean("dryRun")).isTrue();
        assertThat(dry.getJsonNumber("wouldDelete").longValue()).isEqualTo(target - before.watermark());
        assertThat(dry.getJsonNumber("watermarkAfter").longValue()).isEqualTo(target);
        assertThat(state()).as("a dry run changes nothing").isEqualTo(before);
        assertThat(scalar("SELECT count(*) FROM streams_numbered")).isEqualTo(rowsBefore);

        JsonObject real = prune("maxRows=100");
        assertThat(real.getJsonNumber("deleted").longValue()).isEqualTo(dry.getJsonNumber("wouldDelete").longValue());
        assertThat(real.getInt("batches")).as("bounded batches of streams.retention.batch-size")
                .isEqualTo((int) Math.ceil((target - before.watermark()) / (double) BATCH_SIZE));
        assertThat(real.containsKey("stoppedEarly") && !real.isNull("stoppedEarly")).isFalse();
        assertThat(state()).isEqualTo(new State(before.lastCursor(), target));
        assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor IS NOT NULL")).isEqualTo(100);
        assertThat(scalar("SELECT min(cursor) FROM streams_numbered")).isEqualTo(target + 1);
    }

    @Test
    void byAgeOnlyTheOldestRowsGoAndNeverPastAYoungerOne() throws Exception {
        ageEverything("3 hours");
        insert(20, "3 hours");
        insert(1, "0 seconds");
        long young = state().lastCursor();
        insert(20, "3 hours");
        State before = state();

        JsonObject dry = prune("dryRun=true&maxAge=2h");
        assertThat(dry.getJsonNumber("watermarkAfter").longValue()).as("the prefix below the young row").isEqualTo(young - 1);
        JsonObject real = prune("maxAge=2h");
        assertThat(real.getJsonNumber("deleted").longValue()).isEqualTo(dry.getJsonNumber("wouldDelete").longValue())
                .isEqualTo(young - 1 - before.watermark());
        assertThat(state().watermark()).isEqualTo(young - 1);
        assertThat(scalar("SELECT min(cursor) FROM streams_numbered")).isEqualTo(young);
        assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor > " + young)).as("old rows above the young one stay")
                .isEqualTo(before.lastCursor() - young);
    }

    @Test
    void withBothBoundsTheStricterOneWins() throws Exception {
        ageEverything("3 hours");
        insert(50, "3 hours");
        long lastOld = state().lastCursor();
        insert(50, "0 seconds");
        long last = state().lastCursor();

        assertThat(prune("dryRun=true&maxAge=2h&maxRows=80").getJsonNumber("watermarkAfter").longValue())
                .as("the age bound deletes more").isEqualTo(lastOld);
        assertThat(prune("dryRun=true&maxAge=2h&maxRows=20").getJsonNumber("watermarkAfter").longValue())
                .as("the row bound deletes more").isEqualTo(last - 20);

        JsonObject real = prune("maxAge=2h&maxRows=20");
        assertThat(real.getJsonNumber("watermarkAfter").longValue()).isEqualTo(last - 20);
        assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor IS NOT NULL")).isEqualTo(20);
    }

    @Test
    void aRowWithoutACursorAndTheNewestRowSurviveEveryPrune() throws Exception {
        try (Connection open = TestDatabase.connect()) {
            open.setAutoCommit(false);
            // Written long ago by a transaction still open: it has no cursor, whatever its age.
            try (Statement s = open.createStatement()) {
                s.execute("INSERT INTO streams_outbox (model, subject_pk, op, created_at)"
                        + " VALUES ('" + FILLER + "', 'late', 'updated', now() - interval '3 days')");
            }
            insert(10, "3 hours");
            ageEverything("3 hours");
            long last = state().lastCursor();

            prune("maxAge=1h");
            assertThat(state().watermark()).as("everything is old; still the newest row stays").isEqualTo(last - 1);
            assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor = " + last)).isEqualTo(1);
            prune("maxRows=1");
            assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor = " + last)).isEqualTo(1);

            open.commit();
            awaitAssigned();
            assertThat(scalar("SELECT cursor FROM streams_numbered WHERE subject_pk = 'late' AND model = '" + FILLER + "'"))
                    .as("the late row got the next cursor").isEqualTo(last + 1);
        }
    }

    @Test
    void pruningWhileFourWritersAndTheAssignerRunLosesNoRowAndReadinessStaysUp() throws Exception {
        long lastBefore = state().lastCursor();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<Long>> written = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            written.add(writers.submit(() -> {
                long rows = 0;
                try (Connection c = TestDatabase.connect(); PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO streams_outbox (model, subject_pk, op) VALUES ('" + FILLER + "', ?, 'updated')")) {
                    c.setAutoCommit(false);
                    while (writing.get()) {
                        int count = 1 + ThreadLocalRandom.current().nextInt(3);
                        for (int i = 0; i < count; i++) {
                            insert.setString(1, "w" + rows);
                            insert.executeUpdate();
                        }
                        // Some transactions stay open a while: their rows wait without a cursor while pruning runs.
                        if (ThreadLocalRandom.current().nextInt(5) == 0) {
                            Thread.sleep(30);
                        }
                        c.commit();
                        rows += count;
                    }
                }
                return rows;
            }));
        }
        List<Boolean> readiness = new ArrayList<>();
        long prunes = 0;
        long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        try {
            while (System.nanoTime() < until) {
                prune(prunes % 3 == 0 ? "dryRun=true&maxRows=20" : "maxRows=20");
                prunes++;
                readiness.add(Health.listener(Health.root(base), "ready").up());
            }
        } finally {
            writing.set(false);
            writers.shutdown();
        }
        long committed = 0;
        for (Future<Long> rows : written) {
            committed += rows.get();
        }
        awaitAssigned();
        State after = state();

        assertThat(committed).as("the writers wrote").isGreaterThan(100);
        assertThat(prunes).isGreaterThan(5);
        assertThat(after.lastCursor() - lastBefore).as("every committed row got its cursor: none deleted before")
                .isEqualTo(committed);
        assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor > " + after.watermark()))
                .as("nothing above the watermark is missing").isEqualTo(after.lastCursor() - after.watermark());
        assertThat(scalar("SELECT count(*) FROM streams_numbered WHERE cursor <= " + after.watermark())).isZero();
        assertThat(readiness).as("readiness while pruning").containsOnly(true);
    }

    @Test
    void aCursorBelowTheWatermarkThePrunerSetIsPrunedOnEveryTransportAndTheNewestCursorIsValid() throws Exception {
        long id = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":3}");
        awaitAssigned();
        long old = state().lastCursor();
        insert(5, "0 seconds");
        prune("maxRows=1");
        State pruned = state();
        assertThat(old).isLessThan(pruned.watermark());

        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            alice.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\"" + id
                    + "\",\"subscription_id\":\"p\",\"cursor\":" + old + "}");
            JsonObject subscribed = alice.next();
            assertThat(subscribed.getString("type")).isEqualTo("subscribed");
            JsonObject resync = alice.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("reason")).isEqualTo("cursor_pruned");
            assertThat(resync.getJsonNumber("cursor").longValue()).isEqualTo(subscribed.getJsonNumber("cursor").longValue());

            alice.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\"" + id
                    + "\",\"subscription_id\":\"n\",\"cursor\":" + pruned.lastCursor() + "}");
            assertThat(alice.next().getString("type")).as("the newest retained cursor is valid").isEqualTo("subscribed");
            assertThat(alice.drain(500)).as("and owes nothing").isEmpty();
        }
        try (SseClient sse = SseClient.open(base, "alice", "store.CustomerOrder?pk=" + id + "&heartbeat=1s",
                Map.of("Last-Event-ID", Long.toString(old)))) {
            assertThat(sse.status()).isEqualTo(200);
            long cursor = sse.next(10).data().getJsonNumber("cursor").longValue();
            Frame resync = sse.next(10);
            assertThat(resync.raw()).as("one frame whose id is the cursor to resume from").isEqualTo("id: " + cursor
                    + "\nevent: resync_required\ndata: {\"type\":\"resync_required\",\"subscription_id\":\"sub_1\",\"cursor\":"
                    + cursor + ",\"reason\":\"cursor_pruned\"}\n\n");
        }
        try (SseClient sse = SseClient.open(base, "alice", "store.CustomerOrder?pk=" + id + "&heartbeat=1s&cursor="
                + pruned.lastCursor())) {
            assertThat(sse.status()).as("the newest retained cursor is valid over SSE too").isEqualTo(200);
            assertThat(sse.next(10).event()).isEqualTo("subscribed");
        }
    }

    @Test
    void theScheduledTaskPrunesByTheConfiguredAgeAndHealthShowsTheWatermarkAndTheLastPrune() throws Exception {
        insert(10, "0 seconds");
        State before = state();
        insert(1, "0 seconds");
        long young = state().lastCursor();
        // Everything retained below the young row is now older than streams.retention.max-age (1d).
        TestDatabase.execute("UPDATE streams_outbox SET created_at = now() - interval '2 days' WHERE id IN (SELECT outbox_id FROM streams_cursors WHERE cursor < " + young + ")");
        assertThat(before.watermark()).isLessThan(young - 1);

        await().atMost(Duration.ofSeconds(15)).until(() -> state().watermark() == young - 1);
        Instant afterPrune = Instant.now();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Health.Check ready = Health.listener(Health.root(base), "ready");
            assertThat(ready.number("watermark")).isEqualTo(young - 1);
            assertThat(ready.data().getString("lastPrune")).isNotEqualTo("never");
        });
        Instant lastPrune = Instant.parse(Health.listener(Health.root(base), "ready").data().getString("lastPrune"));
        assertThat(lastPrune).isAfter(afterPrune.minusSeconds(30));
    }

    @Test
    void anInstanceWhoseDeliveryLaggedPastPrunedCursorsTellsEverySubscriptionToResync() throws Exception {
        StoreClient alice = StoreClient.as("alice", base);
        String note = alice.post("api/it/capture/non-streamed", null).object().getString("result");
        awaitAssigned();
        try (StreamClient client = StreamClient.connect(base, "alice")) {
            client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"ItNote\",\"subscription_id\":\"all\"}");
            assertThat(client.next().getString("type")).isEqualTo("subscribed");

            // Delivery reads the note's change, then stalls in its fan-out while retention deletes what follows.
            alice.post("api/it/visibility-fault?deliveryDelayMillis=3000", null);
            alice.post("api/it/capture/publish-after-native-update?id=" + note, null);
            sleep(700);
            insert(10, "0 seconds");
            prune("maxRows=1");
            long watermark = state().watermark();
            alice.post("api/it/visibility-fault?deliveryDelayMillis=0", null);

            JsonObject first = client.next();
            assertThat(first.getString("type")).isEqualTo("event");
            JsonObject resync = client.next();
            assertThat(resync.getString("type")).isEqualTo("resync_required");
            assertThat(resync.getString("reason")).isEqualTo("cursor_pruned");
            assertThat(resync.getJsonNumber("cursor").longValue()).isEqualTo(watermark);
        }
    }

    /**
     * Issue 26, item 10: a prune posted by a page of another site, riding on an admin's credentials, is refused
     * (403 {@code origin_not_allowed}), and the refusal quotes at most a short prefix of that origin. This test
     * passed before any change to the check itself: the check was right, and untested.
     */
    @Test
    void aPrunePostedFromAPageOfAnotherSiteIsRefused() throws Exception {
        StoreClient carol = StoreClient.as("carol", base);
        StoreClient.Reply foreign = carol.from("http://evil.example").post("streams/admin/prune?dryRun=true&maxRows=5", null);
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.object().getString("code")).isEqualTo("origin_not_allowed");
        StoreClient.Reply huge = carol.from("http://" + "e".repeat(5_000) + ".example")
                .post("streams/admin/prune?dryRun=true&maxRows=5", null);
        assertThat(huge.status()).isEqualTo(403);
        assertThat(huge.raw()).hasSizeLessThan(400);
        String own = base.getProtocol() + "://" + base.getHost() + ":" + base.getPort();
        assertThat(carol.from(own).post("streams/admin/prune?dryRun=true&maxRows=5", null).status())
                .as("the application's own page").isEqualTo(200);
        assertThat(carol.post("streams/admin/prune?dryRun=true&maxRows=5", null).status())
                .as("a tool that sends no Origin").isEqualTo(200);
    }

    @Test
    void theAdminEndpointsAreForStreamsAdminsOnly() throws Exception {
        StoreClient.Reply anonymous = StoreClient.anonymous(base).get("streams/admin/status");
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.object().getString("code")).isEqualTo("authentication_required");
        assertThat(StoreClient.anonymous(base).post("streams/admin/prune?dryRun=true&maxRows=5", null).status()).isEqualTo(401);
        StoreClient.Reply alice = StoreClient.as("alice", base).get("streams/admin/status");
        assertThat(alice.status()).isEqualTo(403);
        assertThat(alice.object().getString("code")).isEqualTo("forbidden");
        StoreClient.Reply alicePrunes = StoreClient.as("alice", base).post("streams/admin/prune?maxRows=1", null);
        assertThat(alicePrunes.status()).isEqualTo(403);

        StoreClient carol = StoreClient.as("carol", base);
        assertThat(carol.post("streams/admin/prune?maxRows=0", null).object().getString("code")).isEqualTo("invalid_parameter");
        assertThat(carol.post("streams/admin/prune?maxAge=soon", null).object().getString("code")).isEqualTo("invalid_parameter");
        assertThat(carol.post("streams/admin/prune?maxAge=10s", null).status()).isEqualTo(400);
        assertThat(carol.post("streams/admin/prune?rows=5", null).object().getString("code")).isEqualTo("unknown_parameter");
        assertThat(carol.get("streams/admin/nothing").status()).isEqualTo(404);
    }

    @Test
    void theStatusShowsTheOutboxTheRoleAndEachTransport() throws Exception {
        long id = StoreClient.as("alice", base).createOrder("{\"status\":\"open\",\"total\":4}");
        try (StreamClient ws = StreamClient.connect(base, "alice");
             SseClient sse = SseClient.open(base, "alice", "store.CustomerOrder?pk=" + id + "&heartbeat=1s")) {
            ws.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\"}");
            assertThat(ws.next().getString("type")).isEqualTo("subscribed");
            assertThat(sse.next(10).event()).isEqualTo("subscribed");
            StoreClient.as("alice", base).patch("api/orders/" + id, "{\"note\":\"counted\"}");
            ws.nextChangeOf("note");
            awaitAssigned();
            State state = state();

            StoreClient.Reply reply = StoreClient.as("carol", base).get("streams/admin/status");
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            JsonObject status = reply.object();
            assertThat(status.getJsonNumber("cursor").longValue()).isGreaterThanOrEqualTo(state.lastCursor());
            assertThat(status.getJsonNumber("watermark").longValue()).isGreaterThanOrEqualTo(state.watermark());
            assertThat(status.getJsonNumber("outboxRows").longValue())
                    .isEqualTo(scalar("SELECT count(*) FROM streams_numbered"));
            assertThat(status.getJsonNumber("backlogRows").longValue()).isGreaterThanOrEqualTo(0);
            assertThat(status.getString("role")).isIn("assigner", "follower");
            JsonObject transports = status.getJsonObject("transports");
            assertThat(transports.getJsonObject("webSocket").getInt("sessions")).isGreaterThanOrEqualTo(1);
            assertThat(transports.getJsonObject("webSocket").getInt("subscriptions")).isGreaterThanOrEqualTo(1);
            assertThat(transports.getJsonObject("sse").getInt("sessions")).isGreaterThanOrEqualTo(1);
            assertThat(transports.getJsonObject("sse").getInt("subscriptions")).isGreaterThanOrEqualTo(1);
            assertThat(status.getJsonNumber("queuedBytes").longValue()).isGreaterThanOrEqualTo(0);
            assertThat(status.getJsonNumber("deliveredEvents").longValue()).isGreaterThan(0);
            assertThat(status.getJsonObject("resyncs").getJsonNumber("total").longValue()).isGreaterThanOrEqualTo(0);
            assertThat(status.getJsonObject("retention").getString("maxAge")).isEqualTo("PT24H");
            assertThat(status.getJsonObject("retention").getBoolean("enabled")).isTrue();
        }
    }
}
