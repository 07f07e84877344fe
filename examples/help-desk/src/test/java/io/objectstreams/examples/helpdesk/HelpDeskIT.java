package io.objectstreams.examples.helpdesk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The help desk's shapes, each one told to exactly the viewers who may see it, live and on resume: UUID keys, a
 * natural key deleted and created again, a collection changed through helpers that null the parent (orphan
 * removal), a composite key, a policy keyed through the nullable path ticket → team → tenant, a {@code citext}
 * column, and a partitioned table written by SQL and captured by trigger.
 *
 * <p>Who sees what: alice and carol are agents of Acme, bob of Globex, root an administrator (every ticket, with
 * a team or without). "Nobody else" is checked with a barrier: after the change, a write the other viewer may see;
 * that viewer must receive the barrier with nothing about the change before it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HelpDeskIT {

    static final String ACME_SUPPORT = "a1000000-0000-4000-8000-000000000011";
    static final String ACME_BILLING = "a2000000-0000-4000-8000-000000000012";
    static final String GLOBEX_SUPPORT = "b1000000-0000-4000-8000-000000000021";
    static final String TICKETS = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.Ticket\"}";
    static final String TAGS = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.Tag\"}";
    static final String TICKET_TAGS = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.TicketTag\"}";

    @Deployment(testable = false)
    static WebArchive helpDesk() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("helpdesk.war")));
    }

    @ArquillianResource
    URL base;

    /** Readiness, where a load balancer asks: Payara's HTTP port, WildFly's management port (the guide's step 8). */
    @Test
    void readinessIsUpWithTheListenerCheck() throws Exception {
        URI ready = "wildfly".equals(System.getProperty("arquillian.launch"))
                ? URI.create("http://localhost:9990/health/ready") : base.toURI().resolve("/health/ready");
        HttpResponse<String> response = null;
        for (long giveUp = System.nanoTime() + 30_000_000_000L; System.nanoTime() < giveUp; Thread.sleep(500)) {
            response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(ready).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                break;
            }
        }
        String body = response.body();
        assertEquals(200, response.statusCode(), () -> "readiness within 30 s: " + body);
        JsonObject health = Json.createReader(new StringReader(body)).readObject();
        assertEquals("UP", health.getString("status"), body);
        assertTrue(health.getJsonArray("checks").stream()
                .anyMatch(check -> ((JsonObject) check).getString("name").equals("object-streams-listener")), body);
    }

    @Test
    void aTicketKeyedByUuidReachesItsTenantAndTheAdministratorOnly() throws Exception {
        try (Stream alice = stream("alice"); Stream carol = stream("carol"); Stream bob = stream("bob");
             Stream root = stream("root")) {
            for (Stream stream : List.of(alice, carol, bob, root)) {
                stream.subscribe(TICKETS);
            }
            String ticket = api("alice").createTicket("printer on fire", ACME_SUPPORT);
            UUID.fromString(ticket);
            for (Stream acme : List.of(alice, carol, root)) {
                JsonObject added = about(acme, ticket);
                assertEquals("added", added.getString("list_action"), added::toString);
                assertEquals("created", added.getString("op"), added::toString);
            }
            assertNothingAbout(bob, ticket, api("bob").createTicket("barrier", GLOBEX_SUPPORT));
        }
    }

    @Test
    void aTicketTakenOffItsTeamLeavesItsTenantAndMovesWithItsTeam() throws Exception {
        String ticket = api("alice").createTicket("who owns this?", ACME_SUPPORT);
        try (Stream alice = stream("alice"); Stream bob = stream("bob"); Stream root = stream("root")) {
            for (Stream stream : List.of(alice, bob, root)) {
                stream.subscribe(TICKETS);
            }
            api("root").put("api/tickets/" + ticket, "{\"team\":\"\"}");
            assertEquals("removed", changeOf(alice, ticket).getString("list_action"));
            assertEquals("changed", changeOf(root, ticket).getString("list_action"));

            api("root").put("api/tickets/" + ticket, "{\"team\":\"" + GLOBEX_SUPPORT + "\"}");
            assertEquals("added", about(bob, ticket).getString("list_action"));
            assertEquals("changed", about(root, ticket).getString("list_action"));
            assertNothingAbout(alice, ticket, api("alice").createTicket("barrier", ACME_BILLING));

            api("root").put("api/tickets/" + ticket, "{\"team\":\"" + ACME_BILLING + "\"}");
            assertEquals("added", about(alice, ticket).getString("list_action"));
            assertEquals("removed", about(bob, ticket).getString("list_action"));
        }
    }

    /**
     * A ticket tag is visible through its ticket's team, a row of another model. Moving the ticket changes no ticket
     * tag row; the application publishes an update of each of its tags in the same transaction (TicketsResource), and
     * the tags leave the old tenant's view and enter the new one's.
     */
    @Test
    void aTicketsTagsFollowItToAnotherTenant() throws Exception {
        String name = "moving-" + UUID.randomUUID().toString().substring(0, 8);
        api("root").post("api/tags", "{\"name\":\"" + name + "\",\"color\":\"grey\"}");
        String ticket = api("alice").createTicket("tagged, then moved", ACME_SUPPORT);
        api("alice").put("api/tickets/" + ticket + "/tags/" + name, null);
        try (Stream alice = stream("alice"); Stream bob = stream("bob")) {
            alice.subscribe(TICKET_TAGS);
            bob.subscribe(TICKET_TAGS);
            api("root").put("api/tickets/" + ticket, "{\"team\":\"" + GLOBEX_SUPPORT + "\"}");
            JsonObject left = changeOf(alice, key(ticket, name));
            assertEquals("removed", left.getString("list_action"), left::toString);
            JsonObject arrived = changeOf(bob, key(ticket, name));
            assertEquals("added", arrived.getString("list_action"), arrived::toString);
            // Nothing more reaches alice about it: bob untags it, and she hears of it no more.
            api("bob").delete("api/tickets/" + ticket + "/tags/" + name);
            assertEquals("deleted", changeOf(bob, key(ticket, name)).getString("list_action"));
            String own = api("alice").createTicket("tagged barrier", ACME_SUPPORT);
            api("alice").put("api/tickets/" + own + "/tags/" + name, null);
            for (JsonObject event : until(alice, key(own, name))) {
                assertTrue(!event.toString().contains(ticket), () -> "told of " + ticket + ": " + event);
            }
        }
    }

    @Test
    void aCommentRemovedThroughTheHelperIsAChangeOfItsTicket() throws Exception {
        Api alice = api("alice");
        String ticket = alice.createTicket("comment on me", ACME_SUPPORT);
        try (Stream viewer = stream("alice"); Stream bob = stream("bob")) {
            viewer.subscribe(object("helpdesk.Ticket", ticket));
            bob.subscribe(TICKETS);
            JsonObject commented = alice.post("api/tickets/" + ticket + "/comments", "{\"body\":\"on it\"}");
            JsonObject added = changeOf(viewer, ticket);
            assertEquals("[\"comments\"]", added.getJsonArray("changed_fields").toString(), added::toString);

            String comment = commented.getJsonArray("comments").getJsonObject(0).getString("id");
            alice.delete("api/tickets/" + ticket + "/comments/" + comment);
            JsonObject removed = about(viewer, ticket);
            assertEquals("changed", removed.getString("list_action"), removed::toString);
            assertEquals("[\"comments\"]", removed.getJsonArray("changed_fields").toString(), removed::toString);
            assertEquals(0, alice.get("api/tickets/" + ticket).object().getJsonArray("comments").size());
            assertNothingAbout(bob, ticket, api("bob").createTicket("barrier", GLOBEX_SUPPORT));
        }
    }

    @Test
    void aTagDeletedAndCreatedAgainIsToldAsTwoObjects() throws Exception {
        String name = "urgent-" + UUID.randomUUID().toString().substring(0, 8);
        String ticket = api("alice").createTicket("tag me", ACME_SUPPORT);
        try (Stream alice = stream("alice"); Stream bob = stream("bob")) {
            alice.subscribe(TAGS);
            bob.subscribe(TAGS);
            alice.subscribe(TICKET_TAGS);
            bob.subscribe(TICKET_TAGS);
            api("root").post("api/tags", "{\"name\":\"" + name + "\",\"color\":\"red\"}");
            assertEquals("added", about(alice, name).getString("list_action"));
            assertEquals("added", about(bob, name).getString("list_action"));

            api("alice").put("api/tickets/" + ticket + "/tags/" + name, null);
            JsonObject tagged = aboutKey(alice, ticket, name);
            assertEquals("added", tagged.getString("list_action"), tagged::toString);

            assertEquals(204, api("root").delete("api/tags/" + name));
            assertEquals("deleted", aboutKey(alice, ticket, name).getString("list_action"));
            assertEquals("deleted", about(alice, name).getString("list_action"));
            assertEquals("deleted", about(bob, name).getString("list_action"));

            api("root").post("api/tags", "{\"name\":\"" + name + "\",\"color\":\"blue\"}");
            JsonObject again = about(bob, name);
            assertEquals("added", again.getString("list_action"), again::toString);
            assertEquals("created", again.getString("op"), again::toString);
            assertEquals("added", about(alice, name).getString("list_action"));
            // bob never heard of alice's ticket tag: the barrier is a tag on his own ticket.
            String bobs = api("bob").createTicket("barrier", GLOBEX_SUPPORT);
            api("bob").put("api/tickets/" + bobs + "/tags/" + name, null);
            for (JsonObject event : until(bob, key(bobs, name))) {
                assertTrue(!event.getJsonObject("subject").getString("pk").contains(ticket), event::toString);
            }
        }
    }

    @Test
    void aCaseOnlyEditOfACitextColumnIsAChange() throws Exception {
        String ticket = api("alice").createTicket("case matters to people", ACME_SUPPORT);
        try (Stream alice = stream("alice")) {
            alice.subscribe(object("helpdesk.Ticket", ticket));
            api("alice").put("api/tickets/" + ticket, "{\"requesterEmail\":\"Ann@Example.COM\"}");
            JsonObject changed = changeOf(alice, ticket);
            assertEquals("[\"requesterEmail\"]", changed.getJsonArray("changed_fields").toString(), changed::toString);
        }
    }

    @Test
    void activityWrittenBySqlIntoSeveralPartitionsReachesTheTicketsViewersOnly() throws Exception {
        String ticket = api("alice").createTicket("busy ticket", ACME_SUPPORT);
        try (Stream alice = stream("alice"); Stream bob = stream("bob")) {
            alice.subscribe(object("helpdesk.Ticket", ticket));
            bob.subscribe(TICKETS);
            writeActivity(ticket, "2026-11-15T10:00:00Z", "2027-01-10T10:00:00Z", "2031-06-01T10:00:00Z");
            JsonObject event = changeOf(alice, ticket);
            assertEquals("[\"activity\"]", event.getJsonArray("changed_fields").toString(), event::toString);
            assertEquals(3, api("alice").get("api/tickets/" + ticket).object().getInt("activity"));
            assertNothingAbout(bob, ticket, api("bob").createTicket("barrier", GLOBEX_SUPPORT));
        }
    }

    /**
     * A page loads its tickets, goes away while every shape changes, and comes back with the list's cursor and the
     * pks it holds: each changed ticket is replayed once, as what it now is to that viewer.
     */
    @Test
    void aPageThatComesBackIsToldWhatChangedOfEveryShape() throws Exception {
        Api alice = api("alice");
        String commented = alice.createTicket("resume: commented", ACME_SUPPORT);
        String emailed = alice.createTicket("resume: emailed", ACME_SUPPORT);
        String active = alice.createTicket("resume: active", ACME_SUPPORT);
        String unassigned = alice.createTicket("resume: unassigned", ACME_SUPPORT);
        String comment = alice.post("api/tickets/" + commented + "/comments", "{\"body\":\"first\"}")
                .getJsonArray("comments").getJsonObject(0).getString("id");
        Api.Response page = alice.get("api/tickets");
        String members = page.array().stream().map(v -> ((JsonObject) v).getString("id"))
                .map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));

        alice.delete("api/tickets/" + commented + "/comments/" + comment);
        alice.put("api/tickets/" + emailed, "{\"requesterEmail\":\"ANN@example.com\"}");
        writeActivity(active, "2026-12-24T08:00:00Z");
        api("root").put("api/tickets/" + unassigned, "{\"team\":\"\"}");
        String created = alice.createTicket("resume: created", ACME_BILLING);
        String bobs = api("bob").createTicket("resume: not alice's", GLOBEX_SUPPORT);

        try (Stream back = stream("alice")) {
            back.subscribe("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.Ticket\",\"cursor\":"
                    + page.cursor() + ",\"members\":" + members + "}");
            Map<String, String> replayed = new java.util.HashMap<>();
            while (replayed.size() < 5) {
                JsonObject event = back.next();
                assertEquals("event", event.getString("type"), event::toString);
                String pk = event.getJsonObject("subject").getString("pk");
                assertEquals(null, replayed.put(pk, event.getString("list_action")), () -> "twice: " + event);
            }
            assertEquals(Map.of(commented, "changed", emailed, "changed", active, "changed", unassigned, "removed",
                    created, "added"), replayed);
            assertNothingAbout(back, bobs, alice.createTicket("resume: barrier", ACME_SUPPORT));
        }
    }

    /**
     * Tags and tickets' tags resume from a cursor too: a tag deleted and created again under its name is the same pk,
     * changed; the ticket tags its delete took away are removed; a ticket tag made since is added.
     */
    @Test
    void tagsComeBackAfterTheirNameWasReused() throws Exception {
        String name = "reused-" + UUID.randomUUID().toString().substring(0, 8);
        String ticket = api("alice").createTicket("resume: tagged", ACME_SUPPORT);
        String later = api("alice").createTicket("resume: tagged later", ACME_SUPPORT);
        api("root").post("api/tags", "{\"name\":\"" + name + "\",\"color\":\"red\"}");
        api("alice").put("api/tickets/" + ticket + "/tags/" + name, null);
        long cursor = api("alice").get("api/tags").cursor();

        api("root").delete("api/tags/" + name);
        api("root").post("api/tags", "{\"name\":\"" + name + "\",\"color\":\"green\"}");
        api("alice").put("api/tickets/" + later + "/tags/" + name, null);

        try (Stream alice = stream("alice")) {
            alice.subscribe("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.Tag\",\"cursor\":" + cursor
                    + ",\"members\":[\"" + name + "\"]}");
            JsonObject tag = about(alice, name);
            assertEquals("changed", tag.getString("list_action"), tag::toString);
            alice.subscribe("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"helpdesk.TicketTag\",\"cursor\":"
                    + cursor + ",\"members\":[" + Json.createValue(key(ticket, name)) + "]}");
            // A member that no longer exists is answered without details (protocol.md): removed, never deleted.
            JsonObject untagged = aboutKey(alice, ticket, name);
            assertEquals("removed", untagged.getString("list_action"), untagged::toString);
            assertEquals(false, untagged.containsKey("op"), untagged::toString);
            JsonObject tagged = aboutKey(alice, later, name);
            assertEquals("added", tagged.getString("list_action"), tagged::toString);
        }
    }

    private Stream stream(String user) {
        return new Stream(base, user);
    }

    private Api api(String user) {
        return new Api(base, user);
    }

    private static String object(String model, String pk) {
        return "{\"op\":\"subscribe\",\"model\":\"" + model + "\",\"pk\":\"" + pk + "\"}";
    }

    /** A ticket tag's pk on the wire: the composite key as a JSON array, in declared order. */
    private static String key(String ticket, String tag) {
        return Json.createArrayBuilder().add(ticket).add(tag).build().toString();
    }

    /** The first event about {@code pk} not yet taken (events about other objects are kept for later). */
    private static JsonObject about(Stream stream, String pk) throws InterruptedException {
        return stream.next(message -> isEventAbout(message, pk));
    }

    /**
     * The first event about {@code pk} that is not its creation. A subscription opened right after the object was
     * created may still receive the creation live (its cursor can be assigned after the subscription started).
     */
    private static JsonObject changeOf(Stream stream, String pk) throws InterruptedException {
        return stream.next(message -> isEventAbout(message, pk) && !"created".equals(message.getString("op", "")));
    }

    /** The first event about the ticket tag (ticket, tag), whatever the spacing of its JSON pk. */
    private static JsonObject aboutKey(Stream stream, String ticket, String tag) throws InterruptedException {
        return about(stream, key(ticket, tag));
    }

    /** Whether {@code message} is an event about {@code pk}; a JSON-array pk compares as JSON, not as spelled. */
    private static boolean isEventAbout(JsonObject message, String pk) {
        String type = message.getString("type");
        if ("subscribed".equals(type) || "unsubscribed".equals(type)) {
            return false;
        }
        if (!"event".equals(type)) {
            throw new AssertionError("expected an event, got " + message);
        }
        String told = message.getJsonObject("subject").getString("pk");
        if (told.startsWith("[") && pk.startsWith("[")) {
            return Json.createReader(new StringReader(told)).readArray()
                    .equals(Json.createReader(new StringReader(pk)).readArray());
        }
        return told.equals(pk);
    }

    /** Every event the stream received before the first one about {@code barrier}. */
    private static List<JsonObject> until(Stream stream, String barrier) throws InterruptedException {
        stream.next(message -> isEventAbout(message, barrier));
        return stream.takePassed();
    }

    /** The stream's events up to {@code barrier}: none may be about {@code pk}. */
    private static void assertNothingAbout(Stream stream, String pk, String barrier) throws InterruptedException {
        for (JsonObject event : until(stream, barrier)) {
            assertTrue(!event.toString().contains(pk), () -> "told of " + pk + ": " + event);
        }
    }

    /** Activity rows as a mail gateway writes them: plain SQL, one statement, into whichever partition fits. */
    private static void writeActivity(String ticket, String... at) throws Exception {
        try (Connection db = HelpDeskDatabase.connect();
             PreparedStatement insert = db.prepareStatement(
                     "INSERT INTO hd_ticket_activity (ticket_id, at, kind) SELECT ?::uuid, unnest(?::timestamptz[]), 'mail'")) {
            insert.setString(1, ticket);
            insert.setArray(2, db.createArrayOf("timestamptz",
                    java.util.Arrays.stream(at).map(t -> Timestamp.from(Instant.parse(t))).toArray()));
            insert.executeUpdate();
        }
    }
}
