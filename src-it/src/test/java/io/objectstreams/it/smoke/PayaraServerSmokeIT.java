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
import java.io.File;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The reference EAR on Payara Server 6 (EclipseLink): it deploys, a committed change is captured, gets a
 * cursor and is delivered to the instance's transports, and the listener's health is UP.
 */
class PayaraServerSmokeIT {

    @Test
    void earCapturesAssignsAndDeliversOnPayaraServer() throws Exception {
        File driver = new File(System.getProperty("streams.it.driver", "target/postgresql.jar"));
        try (PayaraServerDomain domain = PayaraServerDomain.start(driver)) {
            domain.deploy(Deployments.storeFile("payara-server"));
            StoreClient alice = StoreClient.as("alice", domain.root().resolve("/store/").toURL());

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
            await().atMost(Duration.ofSeconds(10)).until(() -> Health.listener(domain.root(), "ready").up());
            assertThat(Health.listener(domain.root(), "live").up()).isTrue();
        }
    }
}
