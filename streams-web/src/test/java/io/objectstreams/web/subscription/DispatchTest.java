package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.feed.LaterDeletes;
import io.objectstreams.feed.TransactionSnapshot;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.visibility.DecidingAttributes;
import io.objectstreams.web.visibility.Scope;
import io.objectstreams.web.visibility.Visibility;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 42, item 1: the fan-out's work per batch follows what its events may be owed, not the number of subscriptions
 * held. A thousand distinct viewers each subscribe to the orders model under a policy keyed by owner (as the demo's);
 * each batch's visits ({@link BatchFanOut#visits}: the (event, subscription) pairs looked at) are counted, and what
 * every viewer received is checked against what it is owed.
 */
class DispatchTest {

    private static final String MODEL = "store.CustomerOrder";
    private static final int VIEWERS = 1_000;

    /** The orders' owners as the database holds them; a deleted order is absent. Staff read every order. */
    private final Map<String, String> owners = new HashMap<>();
    /** Whether the policy is keyed: otherwise each viewer's predicate is asked, one scope each. */
    private boolean keyed = true;
    /** Queries the fake database answered: rows of keys read, and scopes decided by predicate. */
    private int keyQueries;
    private int scopesAsked;

    private final DispatchIndex index = new DispatchIndex();
    private final FanOutLedger ledger = new FanOutLedger();
    private final SubscriptionLimits limits = new SubscriptionLimits(100, 10_000, 100_000, 1 << 20, 5);
    private final Map<String, OutboundQueueTest.StalledClient> clients = new HashMap<>();
    private final List<StreamSession> sessions = new ArrayList<>();
    private BatchFanOut fanOut;
    /** For the next subscription: resumed without members, read under this snapshot ({@code null}: none). */
    private TransactionSnapshot resumedAt;
    private long cursor = 10;

    private boolean readable(Viewer viewer, String pk) {
        return owners.containsKey(pk) && (viewer.hasRole("staff") || owners.get(pk).equals(viewer.name()));
    }

    private final class World extends Visibility {
        @Override
        public Map<Scope, Set<String>> matching(Map<Scope, Set<String>> pksByScope,
                                                BiConsumer<String, RuntimeException> failed) {
            scopesAsked += pksByScope.size();
            Map<Scope, Set<String>> decided = new HashMap<>();
            pksByScope.forEach((scope, pks) -> decided.put(scope,
                    pks.stream().filter(pk -> readable(scope.viewer(), pk)).collect(Collectors.toSet())));
            return decided;
        }

        @Override
        public Map<String, List<List<String>>> keyRows(String model, Filter filter, Collection<String> pks) {
            keyQueries++;
            Map<String, List<List<String>>> rows = new HashMap<>();
            pks.stream().filter(owners::containsKey).forEach(pk -> rows.put(pk, List.of(List.of(owners.get(pk)))));
            return rows;
        }

        @Override
        public Set<String> members(Scope scope, int max) {
            return owners.keySet().stream().filter(pk -> readable(scope.viewer(), pk)).collect(Collectors.toSet());
        }

        @Override
        public String canonicalPk(String model, String pk) {
            return pk;
        }
    }

    @BeforeEach
    void setUp() {
        for (int i = 0; i < VIEWERS; i++) {
            owners.put("o" + i, "customer" + i);
        }
        World world = new World();
        DeletesAfter deletes = (model, pks, after) -> new LaterDeletes(Set.of(), false);
        fanOut = new BatchFanOut(world, new DecidingAttributes(world) {
            @Override
            protected Optional<Set<String>> policyAttributes(String model) {
                return keyed ? Optional.of(Set.of("owner")) : Optional.empty();
            }
        }, index, (model, pks, after) -> List.of(), ledger, new ResyncMemberReads(world, deletes, 1_000));
    }

    /** A connection of {@code viewer} with one subscription: to the model, or to one object. */
    private StreamSession subscribe(Viewer viewer, String pk) {
        OutboundQueueTest.StalledClient client = new OutboundQueueTest.StalledClient();
        OutboundQueue outbound = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), Runnable::run);
        StreamSession session = new StreamSession(client, viewer, outbound, new ReplayPlanner(null, null, limits) {
            @Override
            Filter filter(SubscribeRequest request) {
                return Filter.NONE;
            }

            @Override
            SubscribeRequest canonical(SubscribeRequest request) {
                return request;
            }

            @Override
            Scope scope(Viewer who, SubscribeRequest request, Filter filter) {
                return !keyed ? new Scope(who, request.model(), filter) : new Scope(who, request.model(), filter,
                        who.hasRole("staff") ? VisibilityKeys.all() : VisibilityKeys.of(List.of(who.name())));
            }

            @Override
            SubscriptionStart start(Subscription subscription, long from) {
                subscription.watchUnaccounted(resumedAt);
                Set<String> members = owners.keySet().stream().filter(pk -> readable(who(), pk))
                        .filter(pk -> subscription.request().pk() == null || pk.equals(subscription.request().pk()))
                        .collect(Collectors.toSet());
                return SubscriptionStart.live(members, from);
            }

            private Viewer who() {
                return viewer;
            }
        }, ledger, () -> cursor, limits, new DeliveryCounts(), new ServerTally(100_000, 1_000_000), index);
        try {
            session.subscribe(new SubscribeRequest(pk == null ? SubscriptionKind.MODEL : SubscriptionKind.OBJECT, MODEL,
                    pk, null, "s", null, null, null));
        } catch (ProtocolError e) {
            throw new AssertionError(e);
        }
        assertThat(client.read()).extracting(m -> m.getString("type")).containsExactly("subscribed");
        clients.put(viewer.name(), client);
        sessions.add(session);
        return session;
    }

    private void everyCustomerAndTwoStaffSubscribe() {
        for (int i = 0; i < VIEWERS; i++) {
            subscribe(new Viewer("customer" + i, Set.of()), null);
        }
        subscribe(new Viewer("staff1", Set.of("staff")), null);
        subscribe(new Viewer("staff2", Set.of("staff")), null);
    }

    /** Commits one update of order {@code pk}, leaving it to {@code ownerAfter}, and fans it out; returns the visits. */
    private long update(String pk, String ownerAfter, String... fields) {
        owners.put(pk, ownerAfter);
        long before = fanOut.visits();
        cursor++;
        fanOut.batch(new StreamBatch(List.of(new StreamEvent(cursor, MODEL, pk, "object", EventOperation.UPDATED,
                List.of(fields), 500 + cursor, "carol", null, Instant.EPOCH))), sessions, ended -> { });
        return fanOut.visits() - before;
    }

    /** What each viewer received since last asked, as {@code list_action pk}, for those who received anything. */
    private Map<String, List<String>> received() {
        Map<String, List<String>> received = new HashMap<>();
        clients.forEach((viewer, client) -> {
            List<JsonObject> messages = client.read();
            if (!messages.isEmpty()) {
                received.put(viewer, messages.stream().map(m -> m.getString("type").equals("event")
                        ? m.getString("list_action") + " " + m.getString("pk", m.getJsonObject("object_ref") == null ? ""
                        : m.getJsonObject("object_ref").getString("pk")) : m.getString("type")).toList());
            }
        });
        return received;
    }

    @Test
    void anEditIsLookedAtOnlyByItsOwnerAndTheStaff() {
        everyCustomerAndTwoStaffSubscribe();
        assertThat(update("o7", "customer7", "status")).as("visits for one edit among %d viewers", VIEWERS).isEqualTo(3);
        assertThat(keyQueries).as("one read of keys, whatever the number of viewers").isEqualTo(1);
        assertThat(received().keySet()).containsExactlyInAnyOrder("customer7", "staff1", "staff2");
    }

    @Test
    void anObjectThatLeavesAViewerIsFoundThroughWhatItHoldsNotThroughItsKeys() {
        everyCustomerAndTwoStaffSubscribe();
        assertThat(update("o7", "customer8", "owner")).isEqualTo(4);
        Map<String, List<String>> received = received();
        assertThat(received.get("customer7")).as("no longer its to read").hasSize(1).allMatch(m -> m.startsWith("removed"));
        assertThat(received.get("customer8")).hasSize(1).allMatch(m -> m.startsWith("added"));
        assertThat(received.keySet()).containsExactlyInAnyOrder("customer7", "customer8", "staff1", "staff2");
        assertThat(update("o7", "customer8", "status")).as("customer7 no longer holds it").isEqualTo(3);
    }

    @Test
    void anObjectSubscriptionIsFoundByItsObject() {
        for (int i = 0; i < VIEWERS; i++) {
            subscribe(new Viewer("customer" + i, Set.of()), "o" + i);
        }
        assertThat(update("o7", "customer7", "status")).isEqualTo(1);
        assertThat(received().keySet()).containsExactly("customer7");
    }

    @Test
    void underAPolicyThatIsNotKeyedEachViewersPredicateIsAskedOfEveryEvent() {
        keyed = false;
        everyCustomerAndTwoStaffSubscribe();
        assertThat(update("o7", "customer7", "status")).as("each scope must be asked").isEqualTo(VIEWERS + 2);
        assertThat(scopesAsked).isEqualTo(VIEWERS + 2);
        assertThat(received().keySet()).containsExactlyInAnyOrder("customer7", "staff1", "staff2");
    }

    @Test
    void theIndexForgetsEverySubscriptionThatEnded() {
        everyCustomerAndTwoStaffSubscribe();
        subscribe(new Viewer("customer1", Set.of()), "o1");
        assertThat(index.sizes()[1]).as("member pks held by keyed set subscriptions").isGreaterThan(0);
        sessions.forEach(StreamSession::closed);
        assertThat(index.sizes()).containsExactly(0, 0, 0);
        assertThat(update("o7", "customer7", "status")).isZero();
    }

    /**
     * A subscription resumed without members watches for events of transactions its members' snapshot saw, so it is
     * handed every event of its model, but only until a transaction the snapshot did not see has been fanned out:
     * every row of those it saw came before (the reviewer's defect 2: it stayed a cost on every event for good).
     */
    @Test
    void aSubscriptionResumedWithoutMembersTakesEveryEventOnlyUntilALaterTransactionPassed() {
        everyCustomerAndTwoStaffSubscribe();
        resumedAt = new TransactionSnapshot(400, 505, new long[0]);
        subscribe(new Viewer("latecomer", Set.of()), null);
        resumedAt = null;
        assertThat(update("o7", "customer7", "status")).as("transaction 511, which the snapshot did not see").isEqualTo(4);
        assertThat(update("o8", "customer8", "status")).as("transactions through 511 fanned out").isEqualTo(3);
        assertThat(received()).doesNotContainKey("latecomer");
    }
}
