package io.objectstreams.web.subscription;

import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.protocol.MessageType;
import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.web.filter.Filter;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The outbound queue's byte bounds, per connection and per server, and its slow-consumer collapse (G10, G15). */
class OutboundQueueTest {

    /** A client that reads only when told to: sends complete when {@link #read} is called. */
    static final class StalledClient implements Subscriber {
        final List<String> received = new ArrayList<>();
        final List<Consumer<Throwable>> pending = new ArrayList<>();
        final List<OutboundMessage> inFlight = new ArrayList<>();
        String closedBecause;

        @Override
        public String id() {
            return "test";
        }

        @Override
        public String transport() {
            return "test";
        }

        @Override
        public void send(OutboundMessage message, Consumer<Throwable> done) {
            inFlight.add(message);
            pending.add(done);
        }

        @Override
        public void close(String reason, boolean clientFault) {
            closedBecause = reason;
        }

        /** Completes every send in flight, and the ones they trigger, until the queue is empty. */
        List<JsonObject> read() {
            List<JsonObject> messages = new ArrayList<>();
            while (!pending.isEmpty()) {
                Consumer<Throwable> done = pending.remove(0);
                OutboundMessage sent = inFlight.remove(0);
                received.add(sent.text());
                JsonObject message = Json.createReader(new StringReader(sent.text())).readObject();
                // What the engine says it sends is what the text says: transports act on the former.
                assertThat(sent.type().wireName()).isEqualTo(message.getString("type"));
                if (sent.type() != MessageType.EVENT) {
                    // (Tests queue one rendered event under several cursors; the engine never does.)
                    assertThat(sent.cursor()).isEqualTo(message.containsKey("cursor")
                            ? message.getJsonNumber("cursor").longValue() : -1);
                }
                assertThat(sent.resyncReason() == null ? null : sent.resyncReason().wireName())
                        .isEqualTo(message.getString("reason", null));
                messages.add(message);
                done.accept(null);
            }
            return messages;
        }
    }

    private static StreamEvent event(long cursor) {
        return new StreamEvent(cursor, "store.CustomerOrder", "1", "object", EventOperation.UPDATED, List.of("status"),
                42, null, null, Instant.now());
    }

    private static Subscription subscription(String id) {
        return new Subscription(id, new SubscribeRequest(SubscriptionKind.MODEL, "store.CustomerOrder", null, null, id, null, null, null),
                Filter.NONE, io.objectstreams.Viewer.anonymous());
    }

    @Test
    void aFailedSendClosesTheConnectionSoTheClientReconnects() {
        StalledClient client = new StalledClient();
        OutboundQueue queue = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), Runnable::run);
        Subscription subscription = subscription("s1");
        String payload = Messages.eventPayload(event(1), ListAction.CHANGED, false);
        queue.event(subscription, 1, payload, -1);
        queue.event(subscription, 2, payload, -1);

        client.pending.remove(0).accept(new java.io.IOException("broken pipe"));

        assertThat(client.closedBecause).as("never a mute open socket (G10)").contains("cursor");
        assertThat(queue.size()).isZero();
        assertThat(queue.queuedBytes()).isZero();
    }

    @Test
    void aSendTheExecutorRejectsClosesTheConnection() {
        StalledClient client = new StalledClient();
        OutboundQueue queue = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopping");
        });

        queue.event(subscription("s1"), 1, Messages.eventPayload(event(1), ListAction.CHANGED, false), -1);

        assertThat(client.closedBecause).isNotNull();
        assertThat(queue.queuedBytes()).isZero();
    }

    @Test
    void aQueuedEventCostsItsEntryAndItsStrings() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(1 << 20, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        Subscription subscription = subscription("s1");
        String payload = Messages.eventPayload(event(1), ListAction.CHANGED, false);
        for (int i = 1; i <= 3; i++) {
            queue.event(subscription, i, payload, -1);
        }
        // The first is in flight; two wait.
        long each = OutboundQueue.ENTRY_BYTES + subscription.eventHead().length() + payload.length();
        assertThat(queue.queuedBytes()).isEqualTo(2 * each);
        assertThat(budget.queuedBytes()).isEqualTo(2 * each);
        assertThat(client.read()).hasSize(3);
        assertThat(queue.queuedBytes()).isZero();
        assertThat(budget.queuedBytes()).isZero();
    }

    @Test
    void eventMessagesAreTheSubscriptionHeadAndTheSharedPayload() {
        StalledClient client = new StalledClient();
        OutboundQueue queue = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), Runnable::run);
        queue.event(subscription("a\"b"), 7, Messages.eventPayload(event(7), ListAction.ADDED, true), -1);
        JsonObject message = client.read().get(0);
        assertThat(message.getString("type")).isEqualTo("event");
        assertThat(message.getString("subscription_id")).isEqualTo("a\"b");
        assertThat(message.getJsonNumber("cursor").longValue()).isEqualTo(7);
        assertThat(message.getJsonObject("subject").getString("model")).isEqualTo("store.CustomerOrder");
        assertThat(message.getJsonObject("subject").getString("pk")).isEqualTo("1");
        assertThat(message.getString("list_action")).isEqualTo("added");
        assertThat(message.getBoolean("fetch")).isTrue();
        assertThat(message.getBoolean("own")).isTrue();
        assertThat(message.getString("transaction_id")).isEqualTo("42");
        assertThat(message.getJsonArray("changed_fields").getString(0)).isEqualTo("status");
    }

    @Test
    void overTheConnectionBudgetQueuedEventsCollapseToOneResyncPerSubscription() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(16 * 1024, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        Subscription first = subscription("first");
        Subscription second = subscription("second");
        int events = 200;
        for (int cursor = 1; cursor <= events; cursor++) {
            queue.event(cursor % 2 == 0 ? first : second, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
            assertThat(queue.queuedBytes()).isLessThanOrEqualTo(16 * 1024);
        }
        assertThat(queue.droppedEvents()).isPositive();
        List<JsonObject> messages = client.read();
        List<JsonObject> resyncs = messages.stream().filter(m -> m.getString("type").equals("resync_required")).toList();
        assertThat(resyncs).extracting(m -> m.getString("subscription_id")).containsExactlyInAnyOrder("first", "second");
        assertThat(resyncs).allSatisfy(m -> assertThat(m.getString("reason")).isEqualTo("slow_consumer"));
        // Every event the client did not get is covered: it got the events after the newest resync cursor.
        long resyncedThrough = resyncs.stream().mapToLong(m -> m.getJsonNumber("cursor").longValue()).max().orElseThrow();
        long lastEvent = messages.stream().filter(m -> m.getString("type").equals("event"))
                .mapToLong(m -> m.getJsonNumber("cursor").longValue()).max().orElse(0);
        assertThat(Math.max(resyncedThrough, lastEvent)).isEqualTo(events);
        assertThat(budget.queuedBytes()).isZero();
    }

    @Test
    void overTheServerBudgetAConnectionKeepsOnlyItsFairShare() {
        AtomicInteger connections = new AtomicInteger(4);
        long server = 64 * 1024;
        OutboundBudget budget = new OutboundBudget(1 << 20, server, connections::get);
        List<StalledClient> clients = new ArrayList<>();
        List<OutboundQueue> queues = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            StalledClient client = new StalledClient();
            clients.add(client);
            queues.add(new OutboundQueue(client, budget, Runnable::run));
        }
        Subscription subscription = subscription("s");
        String payload = Messages.eventPayload(event(1), ListAction.CHANGED, false);
        for (int cursor = 1; cursor <= 2_000; cursor++) {
            for (OutboundQueue queue : queues) {
                queue.event(subscription, cursor, payload, -1);
            }
            long oneMessage = OutboundQueue.ENTRY_BYTES + subscription.eventHead().length() + payload.length();
            assertThat(budget.queuedBytes()).isLessThanOrEqualTo(server + 4 * oneMessage);
        }
        for (OutboundQueue queue : queues) {
            assertThat(queue.droppedEvents()).isPositive();
        }
        for (StalledClient client : clients) {
            assertThat(client.read()).anySatisfy(m -> assertThat(m.getString("reason", "")).isEqualTo("slow_consumer"));
        }
    }

    @Test
    void discardReturnsTheBytesToTheServerBudget() {
        OutboundBudget budget = new OutboundBudget(1 << 20, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(new StalledClient(), budget, Runnable::run);
        Subscription subscription = subscription("s");
        for (int cursor = 1; cursor <= 10; cursor++) {
            queue.event(subscription, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        }
        assertThat(budget.queuedBytes()).isPositive();
        queue.discard();
        assertThat(budget.queuedBytes()).isZero();
        queue.event(subscription, 11, "x", -1);
        assertThat(budget.queuedBytes()).as("a closed queue takes nothing").isZero();
    }

    @Test
    void aClientThatNeverReadsItsRepliesIsDisconnected() {
        StalledClient client = new StalledClient();
        OutboundQueue queue = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), Runnable::run);
        for (int i = 0; i <= OutboundQueue.CONTROL_SLACK + 1; i++) {
            queue.control(Messages.unsubscribed("s" + i));
        }
        assertThat(client.closedBecause).contains("unread replies");
    }

    /**
     * Issue 26, item 10: the {@code slow_consumer} marker belongs to a subscription, not to its id: a subscription
     * that ended and one started again under the same id are each told to resync, each through its own cursor.
     */
    @Test
    void aSubscriptionStartedAgainUnderTheSameIdGetsItsOwnSlowConsumerMarker() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(4 * 1024, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        Subscription ended = subscription("same");
        Subscription again = subscription("same");
        int cursor = 0;
        while (queue.droppedEvents() == 0) {
            cursor++;
            queue.event(ended, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        }
        long droppedBefore = queue.droppedEvents();
        while (queue.droppedEvents() == droppedBefore) {
            cursor++;
            queue.event(again, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        }
        List<JsonObject> resyncs = client.read().stream()
                .filter(m -> m.getString("type").equals("resync_required")).toList();
        assertThat(resyncs).as("one marker each").hasSize(2);
    }

    /** Nothing of an ended subscription follows its end: its queued events and marker are dropped, replies stay. */
    @Test
    void forgettingASubscriptionDropsItsQueuedEventsAndMarkerButNotReplies() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(4 * 1024, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        Subscription ended = subscription("ended");
        Subscription other = subscription("other");
        queue.control(Messages.unsubscribed("x"));
        int cursor = 0;
        while (queue.droppedEvents() == 0) {
            cursor++;
            queue.event(ended, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        }
        queue.event(ended, ++cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        queue.event(other, ++cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        queue.forget(ended);
        List<JsonObject> sent = client.read();
        assertThat(sent).as("only the reply in flight, and the other subscription's event")
                .extracting(m -> m.getString("subscription_id")).containsExactly("x", "other");
        assertThat(budget.queuedBytes()).isZero();
    }

    /** Issue 26, item 2: replies count toward the byte budget; replies alone past it disconnect the client. */
    @Test
    void unreadRepliesAreChargedToTheBudgetAndAClientPastItInRepliesIsDisconnected() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(64 * 1024, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        String echo = "y".repeat(8_000);
        for (int i = 0; i < 20 && client.closedBecause == null; i++) {
            queue.control(new Reply(MessageType.ERROR, Json.createObjectBuilder().add("type", "error")
                    .add("code", "invalid_request").add("message", echo + i).build()));
            assertThat(budget.queuedBytes()).isLessThanOrEqualTo(64 * 1024);
        }
        assertThat(client.closedBecause).contains("unread replies");
        assertThat(budget.queuedBytes()).as("everything queued is returned").isZero();
    }

    @Test
    void aReplyThatDoesNotFitMakesRoomByResyncingTheQueuedEvents() {
        StalledClient client = new StalledClient();
        OutboundBudget budget = new OutboundBudget(16 * 1024, 64 << 20, () -> 1);
        OutboundQueue queue = new OutboundQueue(client, budget, Runnable::run);
        Subscription subscription = subscription("s");
        int cursor = 0;
        while (budget.queuedBytes() < 15 * 1024) {
            cursor++;
            queue.event(subscription, cursor, Messages.eventPayload(event(cursor), ListAction.CHANGED, false), -1);
        }
        queue.control(new Reply(MessageType.ERROR, Json.createObjectBuilder().add("type", "error")
                .add("code", "invalid_request").add("message", "z".repeat(4_000)).build()));
        assertThat(client.closedBecause).isNull();
        List<String> types = client.read().stream().map(m -> m.getString("type")).toList();
        assertThat(types).contains("resync_required", "error");
        assertThat(types.stream().filter("event"::equals).count()).as("only the event already in flight").isLessThanOrEqualTo(1);
    }

    /** Issue 26, item 2: a refusal quotes at most a short prefix of what the client sent. */
    @Test
    void aRefusalNeverEchoesMoreThanAShortPrefixOfTheClientsText() {
        String op = "o".repeat(63_000);
        ProtocolError error = new ProtocolError(io.objectstreams.protocol.ErrorCode.INVALID_REQUEST,
                "Unknown op " + op + "; expected subscribe or unsubscribe");
        assertThat(Messages.error(error).body().toString()).hasSizeLessThan(ProtocolError.MAX_MESSAGE_CHARS + 100);
        assertThat(ProtocolError.quoted(op)).hasSizeLessThan(ProtocolError.MAX_QUOTED_CHARS + 40);
        assertThat(ProtocolError.quoted("short")).isEqualTo("'short'");
    }

    /**
     * G15's aim: a queued event costs at most 100 bytes of heap beyond the payload it shares with every other
     * subscriber. Measured, not computed: 200,000 events queued for a client that reads nothing.
     */
    @Test
    void aQueuedEventCostsAtMostAHundredBytesBeyondItsSharedPayload() {
        StalledClient client = new StalledClient();
        OutboundQueue queue = new OutboundQueue(client, new OutboundBudget(1L << 40, 1L << 40, () -> 1), Runnable::run);
        Subscription subscription = subscription("s");
        String payload = Messages.eventPayload(event(1), ListAction.CHANGED, false);
        int events = 200_000;
        long before = usedHeap();
        for (int cursor = 1; cursor <= events; cursor++) {
            queue.event(subscription, cursor, payload, -1);
        }
        long perEvent = (usedHeap() - before) / events;
        System.out.printf("[queue footprint] %d bytes per queued event beyond its shared payload (%d events)%n",
                perEvent, events);
        assertThat(queue.size()).isEqualTo(events - 1);
        assertThat(perEvent).isLessThanOrEqualTo(100);
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
