package io.objectstreams.it.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Delivered;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.OutboxWriters;
import io.objectstreams.it.support.PayaraServerDomain;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import jakarta.json.JsonObject;
import java.io.File;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The reference EAR on Payara Server 6 (EclipseLink): it deploys, a committed change is captured, gets a
 * cursor and is delivered to the instance's transports, a WebSocket client receives the next change, and the
 * listener's health is UP.
 */
class PayaraServerSmokeIT {

    @Test
    void earCapturesAssignsAndDeliversOnPayaraServer() throws Exception {
        File driver = new File(System.getProperty("streams.it.driver", "target/postgresql.jar"));
        try (PayaraServerDomain domain = PayaraServerDomain.start(driver)) {
            domain.deploy(Deployments.storeFile("payara-server"));
            java.net.URL store = domain.root().resolve("/store/").toURL();
            StoreClient alice = StoreClient.as("alice", store);

            long mark = Outbox.mark();
            long id = alice.createOrder("{\"status\":\"open\",\"total\":3.50}");

            assertThat(Outbox.since(mark)).singleElement().satisfies(row -> {
                assertThat(row.op()).isEqualTo("created");
                assertThat(row.pk()).isEqualTo(Long.toString(id));
                assertThat(row.actor()).isEqualTo("alice");
            });
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> OutboxWriters.cursorOf("store.CustomerOrder", Long.toString(id)) != null);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Delivered.from(alice, "store.CustomerOrder").pks().contains(Long.toString(id)));
            try (StreamClient socket = StreamClient.connect(store, "alice")) {
                JsonObject subscribed = socket.send("{\"op\":\"subscribe\",\"model\":\"store.CustomerOrder\",\"pk\":\""
                        + id + "\"}").next();
                assertThat(subscribed.getString("type")).isEqualTo("subscribed");
                alice.patch("api/orders/" + id, "{\"status\":\"paid\"}");
                JsonObject event = socket.next();
                assertThat(event.getString("type")).isEqualTo("event");
                assertThat(event.getString("list_action")).isEqualTo("changed");
                assertThat(event.getJsonArray("changed_fields").getString(0)).isEqualTo("status");
                assertThat(event.getBoolean("own")).isTrue();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> Health.listener(domain.root(), "ready").up());
            assertThat(Health.listener(domain.root(), "live").up()).isTrue();
        }
    }
}
