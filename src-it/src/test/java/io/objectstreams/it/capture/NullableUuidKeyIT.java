package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Shapes the help desk example brought in (issue 41), each a defect it found:
 *
 * <ul>
 *   <li>a keyed policy whose key is a UUID read through a nullable link ({@code ItCase} → desk → tenant): on
 *       EclipseLink the key query's NULL UUID (a case on no desk) failed the whole batch's visibility check, and
 *       every subscriber of the model was told to resync ({@code delivery_failed});</li>
 *   <li>a policy that is a session bean extending a ready base class without repeating the interface
 *       ({@code ItTwinTVisibility}): the engine did not find it, and the model could not be subscribed to.</li>
 * </ul>
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class NullableUuidKeyIT {

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    @Test
    void aCaseOnNoDeskNeitherReachesNorStopsTheTenantsViewers() throws Exception {
        TestDatabase.execute("DELETE FROM it_case");
        try (StreamClient alice = StreamClient.connect(base, "alice"); StreamClient bob = StreamClient.connect(base, "bob")) {
            for (StreamClient client : List.of(alice, bob)) {
                client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"it.ItCase\"}");
                assertThat(client.next().getString("type")).isEqualTo("subscribed");
            }
            // One transaction: a case on no desk, one of alice's tenant, one of bob's.
            TestDatabase.execute("INSERT INTO it_case (id, desk_id, note) VALUES (1, NULL, 'nobody'), (2, 1, 'alice'),"
                    + " (3, 2, 'bob')");
            assertThat(pksOfNextEvents(alice, 1)).containsExactly("2");
            assertThat(pksOfNextEvents(bob, 1)).containsExactly("3");
            // Moving the first case to alice's desk adds it for her; taking hers off its desk removes it.
            TestDatabase.execute("UPDATE it_case SET desk_id = 1 WHERE id = 1");
            TestDatabase.execute("UPDATE it_case SET desk_id = NULL WHERE id = 2");
            JsonObject added = alice.next();
            assertThat(added.getString("list_action")).as(added.toString()).isEqualTo("added");
            assertThat(added.getJsonObject("subject").getString("pk")).isEqualTo("1");
            JsonObject removed = alice.next();
            assertThat(removed.getString("list_action")).as(removed.toString()).isEqualTo("removed");
            assertThat(removed.getJsonObject("subject").getString("pk")).isEqualTo("2");
        }
    }

    @Test
    void aPolicyInheritingTheInterfaceFromAReadyBaseClassIsFound() throws Exception {
        try (StreamClient alice = StreamClient.connect(base, "alice")) {
            alice.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"it.ItTwinT\"}");
            JsonObject answer = alice.next();
            assertThat(answer.getString("type")).as(answer.toString()).isEqualTo("subscribed");
        }
    }

    /** The pks of the next {@code count} messages, each of which must be an event (a resync fails the test). */
    private static List<String> pksOfNextEvents(StreamClient client, int count) throws InterruptedException {
        List<String> pks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JsonObject event = client.next();
            assertThat(event.getString("type")).as(event.toString()).isEqualTo("event");
            pks.add(event.getJsonObject("subject").getString("pk"));
        }
        return pks;
    }
}
