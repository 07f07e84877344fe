package io.objectstreams.it.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import java.net.URL;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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
 * Composite keys end to end (G3): one spelling of the pk, the JSON array of the key's parts in declared order, written
 * by the entity listener ({@code ItKeyedL}, an {@code @IdClass}) and by a capture trigger ({@code ItKeyed}, an
 * {@code @EmbeddedId}) alike, and read back by the delivery engine: a policy on a key part decides who sees each
 * event, and an object subscription names its object by that pk, however the client spaces the JSON.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CompositeKeyIT {

    private static final String LISTENER = "it.ItKeyedL";
    private static final String TRIGGER = "it.ItKeyed";

    @Deployment(testable = false)
    static Archive<?> deployment() {
        return Deployments.store();
    }

    @ArquillianResource
    URL base;

    @Test
    void bothPathsSpellTheKeyAlikeAndThePolicyOnAKeyPartDecidesWhoIsTold() throws Exception {
        sql("DELETE FROM it_keyed_l");
        sql("DELETE FROM it_keyed");
        try (StreamClient alice = StreamClient.connect(base, "alice"); StreamClient bob = StreamClient.connect(base, "bob")) {
            for (StreamClient client : List.of(alice, bob)) {
                for (String model : List.of(LISTENER, TRIGGER)) {
                    client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + model + "\",\"subscription_id\":\""
                            + model + "\"}");
                    JsonObject subscribed = client.next();
                    assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
                }
            }
            jpa("create?region=eu&number=7&note=x");
            sql("INSERT INTO it_keyed (region, number, note) VALUES ('eu', 7, 'x')");
            jpa("create?region=us&number=8&note=x");
            sql("INSERT INTO it_keyed (region, number, note) VALUES ('us', 8, 'x')");

            assertThat(events(alice, 2)).containsExactlyInAnyOrder(LISTENER + " created [\"eu\", 7]",
                    TRIGGER + " created [\"eu\", 7]");
            assertThat(events(bob, 2)).containsExactlyInAnyOrder(LISTENER + " created [\"us\", 8]",
                    TRIGGER + " created [\"us\", 8]");

            // The object, named with other spacing; bob may not see it, exactly as if it did not exist.
            for (String model : List.of(LISTENER, TRIGGER)) {
                alice.send("{\"op\":\"subscribe\",\"model\":\"" + model + "\",\"pk\":\"[\\\"eu\\\",7]\",\"subscription_id\":\"one "
                        + model + "\"}");
                JsonObject subscribed = alice.next();
                assertThat(subscribed.getString("type")).as(subscribed.toString()).isEqualTo("subscribed");
                bob.send("{\"op\":\"subscribe\",\"model\":\"" + model + "\",\"pk\":\"[\\\"eu\\\", 7]\",\"subscription_id\":\"x\"}");
                JsonObject refused = bob.next();
                assertThat(refused.getString("type")).as(refused.toString()).isEqualTo("error");
                assertThat(refused.getString("code")).isEqualTo("not_found");
                bob.send("{\"op\":\"subscribe\",\"model\":\"" + model + "\",\"pk\":\"[\\\"eu\\\", 404]\",\"subscription_id\":\"x\"}");
                JsonObject absent = bob.next();
                assertThat(absent.getString("code")).as("a key that does not exist: the same answer").isEqualTo("not_found");
            }
            jpa("update?region=eu&number=7&note=y");
            sql("UPDATE it_keyed SET note = 'y' WHERE region = 'eu' AND number = 7");
            List<JsonObject> updates = next(alice, 4);
            assertThat(updates).extracting(e -> e.getString("subscription_id") + " " + e.getString("op") + " "
                    + e.getJsonObject("subject").getString("pk") + " " + e.getJsonArray("changed_fields"))
                    .containsExactlyInAnyOrder(
                            LISTENER + " updated [\"eu\", 7] [\"note\"]", "one " + LISTENER + " updated [\"eu\", 7] [\"note\"]",
                            TRIGGER + " updated [\"eu\", 7] [\"note\"]", "one " + TRIGGER + " updated [\"eu\", 7] [\"note\"]");
            assertThat(bob.drain(500)).noneMatch(m -> "event".equals(m.getString("type")));

            jpa("delete?region=eu&number=7");
            sql("DELETE FROM it_keyed WHERE region = 'eu' AND number = 7");
            assertThat(next(alice, 4)).extracting(e -> e.getString("op")).containsOnly("deleted");
        }
        // A part whose text needs escaping is spelled the same on both paths.
        jpa("create?region=" + java.net.URLEncoder.encode("a\"b\\c", java.nio.charset.StandardCharsets.UTF_8) + "&number=1&note=x");
        sql("INSERT INTO it_keyed (region, number, note) VALUES ('a\"b\\c', 1, 'x')");
        await().atMost(Duration.ofSeconds(20)).until(() -> value("SELECT count(DISTINCT subject_pk) FROM streams_numbered"
                + " WHERE model IN ('" + LISTENER + "', '" + TRIGGER + "') AND subject_pk LIKE '[\"a%'"), "1"::equals);
        assertThat(value("SELECT min(subject_pk) FROM streams_numbered WHERE subject_pk LIKE '[\"a%'"))
                .isEqualTo("[\"a\\\"b\\\\c\", 1]");
    }

    private static List<String> events(StreamClient client, int count) throws InterruptedException {
        return next(client, count).stream().map(e -> e.getString("subscription_id") + " " + e.getString("op") + " "
                + e.getJsonObject("subject").getString("pk")).toList();
    }

    private static List<JsonObject> next(StreamClient client, int count) throws InterruptedException {
        List<JsonObject> events = new ArrayList<>();
        while (events.size() < count) {
            JsonObject message = client.next();
            assertThat(message.getString("type")).as(message.toString()).isEqualTo("event");
            events.add(message);
        }
        return events;
    }

    private void jpa(String call) {
        StoreClient.Reply reply = StoreClient.as("alice", base).post("api/it/keyed/" + call, null);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }

    private static void sql(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String value(String sql) throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
