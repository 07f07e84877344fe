package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.TestDatabase;
import io.objectstreams.it.support.badkey.ItPadded;
import io.objectstreams.it.support.badkey.ItPriced;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo without the {@code <mapping-file>} line that brings Object Streams' entity listener into its
 * persistence unit: instead of committing every change without an outbox row, deployment stops with
 * {@code capture_not_configured}, naming the line to add (issue 11.2; docs/capture.md). On both providers.
 */
class MissingMappingFileIT {

    private static final String MAPPING_FILE = "<mapping-file>META-INF/object-streams-orm.xml</mapping-file>";

    @Test
    void aPersistenceUnitWithoutTheMappingFileStopsDeploymentNamingIt() throws Exception {
        var archive = Deployments.storeFile("missing-mapping-file", xml -> {
            assertThat(xml).as("the demo's persistence.xml lists the mapping file").contains(MAPPING_FILE);
            return xml.replace(MAPPING_FILE, "");
        });
        try (ServerProcess server = ServerProcess.start("missing-mapping-file", archive, Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            server.awaitLog("capture_not_configured", Duration.ofSeconds(30));
            String log = server.log();
            assertThat(log).contains(MAPPING_FILE).contains("io.objectstreams.demo.store.CustomerOrder");
            // The store's web module did not start. (WildFly, deploying at boot, leaves the EAR's other modules
            // running and reports "started (with errors)"; a deployment made at runtime is rolled back whole.)
            assertThat(status(server, "api/orders")).as("the store's API is not served").isNotEqualTo(200);
        }
    }

    /**
     * Issue 40 item 5 (G16): a streamed entity whose key no capture path spells alike (here a decimal) used to deploy,
     * after which every event of its model resynced every set subscription and every object subscribe was
     * not_found. Deployment now stops, naming the attribute.
     */
    @Test
    void aStreamedEntityWithAKeyOfAnUnsupportedTypeStopsDeploymentNamingTheAttribute() throws Exception {
        var archive = Deployments.storeFileWith("unsupported-key", ItPriced.class);
        try (ServerProcess server = ServerProcess.start("unsupported-key", archive, Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            server.awaitLog("capture_failed", Duration.ofSeconds(30));
            assertThat(server.log()).contains(ItPriced.class.getName() + " has a key price of type java.math.BigDecimal");
            assertThat(status(server, "api/orders")).as("the store's API is not served").isNotEqualTo(200);
        }
    }

    /**
     * Issue 40 item 5: a key in a {@code character(n)} column was spelled with its padding by the entity listener and
     * the members a subscription reads, and without it by a trigger; it deployed, and events and subscriptions named
     * one object apart. Deployment now stops, naming the column and the entity.
     */
    @Test
    void aStreamedEntityKeyedByACharacterColumnStopsDeploymentNamingTheColumn() throws Exception {
        try (var db = TestDatabase.connect(); var statement = db.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS it_padded (code char(8) PRIMARY KEY)");
        }
        var archive = Deployments.storeFileWith("padded-key", ItPadded.class);
        try (ServerProcess server = ServerProcess.start("padded-key", archive, Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            server.awaitLog("capture_failed", Duration.ofSeconds(30));
            assertThat(server.log()).contains("column code of table").contains("it_padded")
                    .contains("holds the key of " + ItPadded.class.getName() + " and is character(n)");
            assertThat(status(server, "api/orders")).as("the store's API is not served").isNotEqualTo(200);
        }
    }

    private static int status(ServerProcess server, String path) {
        try {
            return StoreClient.as("alice", server.deployment()).get(path).status();
        } catch (RuntimeException unreachable) {
            return -1;
        }
    }
}
