package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TcpProxy;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.io.File;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The listener's session against network faults (G5–G7, G10), with a TCP proxy the test controls on each
 * instance's listener path only; the application's own pool reaches the database directly. Two instances of
 * one application, then a third of another application in another schema of the same database.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ListenerFaultsIT {

    /** The bound the takeover is checked against: short for the test, and documented. */
    private static final Duration DEAD_SESSION_TIMEOUT = Duration.ofSeconds(4);

    private static TcpProxy toFirst;
    private static TcpProxy toSecond;
    private static ServerProcess first;
    private static ServerProcess second;
    private static File archive;

    @BeforeAll
    static void start() throws Exception {
        archive = Deployments.storeFile("listener-faults");
        Map<String, String> db = TestDatabase.serverEnvironment();
        toFirst = TcpProxy.start(db.get("STREAMS_DB_HOST"), Integer.parseInt(db.get("STREAMS_DB_PORT")), TcpProxy.Mode.OPEN);
        // The second instance boots while its listener cannot reach the database.
        toSecond = TcpProxy.start(db.get("STREAMS_DB_HOST"), Integer.parseInt(db.get("STREAMS_DB_PORT")), TcpProxy.Mode.REFUSE);
        first = ServerProcess.start("faults-first", archive, env(toFirst));
        first.awaitStarted(Duration.ofMinutes(3));
        await().atMost(Duration.ofSeconds(30)).until(() -> first.role().equals("assigner"));
        second = ServerProcess.start("faults-second", archive, env(toSecond));
        second.awaitStarted(Duration.ofMinutes(3));
    }

    private static Map<String, String> env(TcpProxy proxy) {
        Map<String, String> env = new HashMap<>();
        env.put("STREAMS_LISTENER_URL", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/"
                + TestDatabase.serverEnvironment().get("STREAMS_DB_NAME"));
        env.put("STREAMS_LISTENER_DEAD_SESSION_TIMEOUT", DEAD_SESSION_TIMEOUT.toSeconds() + "s");
        env.put("STREAMS_LISTENER_RETRY_DELAY", "500ms");
        env.put("STREAMS_LISTENER_MAX_RETRY_DELAY", "1s");
        return env;
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {first, second, toFirst, toSecond}) {
            if (closeable != null) {
                closeable.close();
            }
        }
    }

    /**
     * Issue 11.3: a subscription made before this instance's listener ever reached the database must get the
     * events committed meanwhile (or a resync), not start at cursor 0 and be jumped past at the first connect.
     */
    @Test
    @Order(1)
    void aSubscriptionMadeBeforeTheListenerFirstConnectsGetsWhatWasCommittedMeanwhile() throws Exception {
        assertThat(second.role()).as("the second listener has not connected").isNotEqualTo("follower");
        long order = StoreClient.as("alice", first.deployment()).createOrder("{\"status\":\"open\",\"total\":3}");
        try (StreamClient client = StreamClient.connect(second.deployment(), "alice")) {
            JsonObject subscribed = client.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\""
                    + order + "\"}").next();
            assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");

            StoreClient.as("alice", first.deployment()).patch("api/orders/" + order, "{\"status\":\"paid\"}");
            await().atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.assignedThrough() > 0);
            Thread.sleep(1_000);
            toSecond.mode(TcpProxy.Mode.OPEN);

            // The subscription started at the instance's boot cursor, so the order's creation (committed after
            // it) is owed too; then the status change.
            JsonObject owed;
            do {
                owed = client.poll(30);
                assertThat(owed).as("the event or a resync once the listener connects").isNotNull();
                assertThat(owed.getString("type")).as(owed.toString()).isIn("event", "resync_required");
            } while (owed.getString("type").equals("event") && !owed.getJsonArray("changed_fields").toString().contains("status"));
            if (owed.getString("type").equals("event")) {
                assertThat(owed.getString("list_action")).isEqualTo("changed");
            }
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> second.role().equals("follower"));
    }

    /**
     * Issue 11.4: an assigner whose connection goes silent (here black-holed by its proxy, which PostgreSQL cannot
     * notice: the proxy's socket stays up) is fenced by the other instance, which takes the role within the dead
     * session timeout plus a poll interval or two; cursors are assigned again.
     */
    @Test
    @Order(2)
    void aBlackHoledAssignerIsFencedAndReplacedWithinTheDeadSessionTimeout() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> first.role().equals("assigner") && second.role().equals("follower"));

        toFirst.mode(TcpProxy.Mode.BLACKHOLE);
        long blackHoledAt = System.nanoTime();
        await().atMost(DEAD_SESSION_TIMEOUT.plusSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> second.role().equals("assigner"));
        Duration takeover = Duration.ofNanos(System.nanoTime() - blackHoledAt);
        System.out.printf("[fencing] takeover %d ms after the assigner's connection was black-holed"
                + " (dead-session-timeout %d ms)%n", takeover.toMillis(), DEAD_SESSION_TIMEOUT.toMillis());
        assertThat(takeover).as("within the dead session timeout, three poll intervals and slack")
                .isLessThan(DEAD_SESSION_TIMEOUT.plusSeconds(3 + 5));
        assertThat(second.log()).contains("fenced the assigner session");

        StoreClient.as("alice", second.deployment()).createOrder("{\"status\":\"open\",\"total\":4}");
        await("cursors are assigned again").atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.assignedThrough() > 0);
        toFirst.mode(TcpProxy.Mode.OPEN);
    }

    /**
     * Issue 11.5: the assigner lock's key comes from the outbox table the listener uses, so an application whose
     * outbox is in another schema of the same database has an assigner of its own.
     */
    @Test
    @Order(3)
    void anApplicationInAnotherSchemaOfTheSameDatabaseHasItsOwnAssigner() throws Exception {
        TestDatabase.execute(
                "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'it_tenant') THEN"
                        + " CREATE ROLE it_tenant LOGIN PASSWORD 'it_tenant'; END IF; END $$",
                "CREATE SCHEMA IF NOT EXISTS it_tenant AUTHORIZATION it_tenant",
                "ALTER ROLE it_tenant SET search_path = it_tenant");
        assertThat(second.role()).as("the assigner of the public schema's outbox").isEqualTo("assigner");
        try (ServerProcess tenant = ServerProcess.start("faults-tenant", archive,
                Map.of("STREAMS_DB_USER", "it_tenant", "STREAMS_DB_PASSWORD", "it_tenant"))) {
            tenant.awaitStarted(Duration.ofMinutes(3));
            await().atMost(Duration.ofSeconds(30)).until(() -> tenant.role().equals("assigner"));
            assertThat(tenant.log()).contains("holds the assigner role for it_tenant.streams_outbox");
            assertThat(second.role()).as("the other application keeps its own assigner").isEqualTo("assigner");

            long order = StoreClient.as("alice", tenant.deployment()).createOrder("{\"status\":\"open\",\"total\":5}");
            await().atMost(Duration.ofSeconds(10)).until(() -> tenantAssigned(order));
        }
    }

    private static boolean tenantAssigned(long order) throws Exception {
        try (var c = TestDatabase.connect(); var s = c.createStatement();
             var rs = s.executeQuery("SELECT cursor FROM it_tenant.streams_numbered WHERE subject_pk = '" + order + "'")) {
            return rs.next() && rs.getObject(1) != null;
        }
    }
}
