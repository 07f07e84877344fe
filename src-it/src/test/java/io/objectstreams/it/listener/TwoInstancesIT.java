package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Delivered;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.OutboxWriters;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.io.File;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * G7 with two real Payara Micro instances on one database: exactly one assigner; when it is killed (not
 * stopped) the other takes the role within seconds; the survivor delivers every cursor once, in order.
 * Ends with a graceful stop, after which no listener session is left in the database.
 */
class TwoInstancesIT {

    private static final String MODEL = "it.Failover";

    @Test
    void killedAssignerIsReplacedAndTheSurvivorDeliversEveryCursorOnceInOrder() throws Exception {
        File archive = Deployments.storeFile("two-instances");
        try (ServerProcess first = ServerProcess.start("first", archive, Map.of());
             ServerProcess second = ServerProcess.start("second", archive, Map.of())) {
            first.awaitStarted(Duration.ofMinutes(3));
            second.awaitStarted(Duration.ofMinutes(3));
            await().atMost(Duration.ofSeconds(30)).until(() -> roles(first, second).containsAll(List.of("assigner", "follower")));
            assertThat(List.of(first.role(), second.role())).containsExactlyInAnyOrder("assigner", "follower");
            readsAreFreshOnEveryInstance(first, second);
            ServerProcess assigner = first.role().equals("assigner") ? first : second;
            ServerProcess survivor = assigner == first ? second : first;

            Set<String> committed = ConcurrentHashMap.newKeySet();
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> write(committed, writing));
            writer.start();
            Thread.sleep(1000);

            assigner.kill();
            long killedAt = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                    .until(() -> survivor.role().equals("assigner"));
            Duration takeover = Duration.ofNanos(System.nanoTime() - killedAt);
            System.out.println("Assigner takeover after kill: " + takeover.toMillis() + " ms");

            Thread.sleep(1000);
            writing.set(false);
            writer.join();

            StoreClient client = StoreClient.as("alice", survivor.deployment());
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                    .until(() -> new HashSet<>(Delivered.from(client, MODEL).pks()).containsAll(committed));
            Delivered survivorSaw = Delivered.from(client, null);
            assertThat(Delivered.from(client, MODEL).pks()).doesNotHaveDuplicates().hasSameSizeAs(committed);
            List<Long> cursors = survivorSaw.cursors();
            for (int i = 1; i < cursors.size(); i++) {
                assertThat(cursors.get(i)).as("survivor: cursor after %s", cursors.get(i - 1)).isEqualTo(cursors.get(i - 1) + 1);
            }
            assertThat(takeover).isLessThan(Duration.ofSeconds(10));

            // Stopping the server undeploys the application: the listener must release its session.
            assertThat(survivor.stopGracefully(Duration.ofSeconds(60))).as("server stops").isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> TestDatabase.listenerSessions() == 0);
        }
    }

    /**
     * A client loads through one instance what another changed: the REST snapshot it subscribes from must be the
     * database's state, not a per-instance cache's (EclipseLink's shared cache is on unless the unit turns it off).
     */
    private static void readsAreFreshOnEveryInstance(ServerProcess first, ServerProcess second) {
        StoreClient viaFirst = StoreClient.as("alice", first.deployment());
        StoreClient viaSecond = StoreClient.as("alice", second.deployment());
        long id = viaFirst.createOrder("{\"status\":\"open\",\"total\":5}");
        assertThat(viaSecond.get("api/orders/" + id).object().getString("status")).isEqualTo("open");
        assertThat(viaFirst.patch("api/orders/" + id, "{\"status\":\"paid\"}").status()).isEqualTo(200);
        assertThat(viaSecond.get("api/orders/" + id).object().getString("status"))
                .as("the second instance reads what the first committed").isEqualTo("paid");
        assertThat(viaSecond.get("api/orders").body().asJsonArray().getValuesAs(jakarta.json.JsonObject.class).stream()
                .filter(o -> o.getJsonNumber("id").longValue() == id).map(o -> o.getString("status")).toList())
                .as("and lists it so").containsExactly("paid");
    }

    private static List<String> roles(ServerProcess... servers) {
        return java.util.Arrays.stream(servers).map(ServerProcess::role).toList();
    }


    private static void write(Set<String> committed, AtomicBoolean writing) {
        int i = 0;
        try (Connection c = TestDatabase.connect()) {
            while (writing.get()) {
                String pk = "f" + i++;
                OutboxWriters.insert(c, MODEL, pk);
                committed.add(pk);
                Thread.sleep(10);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
