package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.Viewer;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A session's subscribe, against a planner that answers from memory: what the client receives when the server acts
 * on a subscription while it is still starting (G10, G12).
 */
class StreamSessionTest {

    private final OutboundQueueTest.StalledClient client = new OutboundQueueTest.StalledClient();
    private final SubscriptionLimits limits = new SubscriptionLimits(100, 10_000, 100_000, 1 << 20, 5);

    /** A planner whose start runs {@code whileStarting} (as the fan-out would, concurrently), then starts live. */
    private ReplayPlanner planner(java.util.function.Consumer<Subscription> whileStarting) {
        return new ReplayPlanner(null, null, limits) {
            @Override
            Filter filter(SubscribeRequest request) {
                return Filter.NONE;
            }

            @Override
            io.objectstreams.web.visibility.Scope scope(Viewer viewer, SubscribeRequest request, Filter filter) {
                return new io.objectstreams.web.visibility.Scope(viewer, request.model(), filter);
            }

            @Override
            SubscriptionStart start(Subscription subscription, long cursor) {
                whileStarting.accept(subscription);
                return SubscriptionStart.live(Set.of("1", "2"), cursor);
            }
        };
    }

    private final ServerTally tally = new ServerTally(100, 1_000);

    private StreamSession session(ReplayPlanner planner) {
        OutboundQueue outbound = new OutboundQueue(client, new OutboundBudget(1 << 20, 64 << 20, () -> 1), Runnable::run);
        return new StreamSession(client, Viewer.anonymous(), outbound, planner, new FanOutLedger(), () -> 10, limits,
                new DeliveryCounts(), tally, new DispatchIndex());
    }

    private static SubscribeRequest model(String id) {
        return new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null, id, null, null, null);
    }

    @Test
    void aSubscriptionStartsWithSubscribed() throws ProtocolError {
        StreamSession session = session(planner(subscription -> { }));
        session.subscribe(model("s"));
        List<JsonObject> received = client.read();
        assertThat(received).extracting(m -> m.getString("type")).containsExactly("subscribed");
        assertThat(received.get(0).getJsonNumber("cursor").longValue()).isEqualTo(10);
        assertThat(session.subscriptions()).hasSize(1);
    }

    /** Issue 26, item 4: what a connection's subscriptions held of the server's caps is given back, however they end. */
    @Test
    void theServerWideTallyIsGivenBackWhenSubscriptionsEndAndWhenTheConnectionCloses() throws ProtocolError {
        StreamSession session = session(planner(subscription -> { }));
        session.subscribe(model("a"));
        session.subscribe(model("b"));
        assertThat(tally.scopes()).as("a and b share one scope").isOne();
        assertThat(tally.memberPks()).isEqualTo(4);
        session.unsubscribe("a");
        assertThat(tally.memberPks()).isEqualTo(2);
        session.closed();
        assertThat(tally.scopes()).isZero();
        assertThat(tally.memberPks()).isZero();
    }

    /** From the review: a subscribe still joining when its connection closes must not stay counted for good. */
    @Test
    void aSubscriptionThatJoinsAfterItsConnectionClosedHoldsNothing() throws ProtocolError {
        StreamSession session = session(planner(subscription -> { }));
        session.closed();
        session.subscribe(model("late"));
        assertThat(tally.scopes()).isZero();
        assertThat(tally.memberPks()).isZero();
        assertThat(session.subscriptions()).isEmpty();
    }

    @Test
    void aSubscriptionTheServerEndsWhileItStartsIsNeverReportedAsSubscribed() throws ProtocolError {
        StreamSession[] session = new StreamSession[1];
        boolean[] ended = {false};
        session[0] = session(planner(subscription -> {
            if (!ended[0]) {
                ended[0] = true;
                session[0].end(subscription, new ProtocolError(ErrorCode.SUBSCRIPTION_TOO_LARGE,
                        "Subscription s now matches too many objects"));
            }
        }));
        session[0].subscribe(model("s"));
        List<JsonObject> received = client.read();
        assertThat(received).extracting(m -> m.getString("type")).containsExactly("error");
        assertThat(received.get(0).getString("code")).isEqualTo("subscription_too_large");
        assertThat(session[0].subscriptions()).isEmpty();
        session[0].subscribe(model("s"));
        assertThat(client.read()).as("the id is free again").extracting(m -> m.getString("type"))
                .containsExactly("subscribed");
    }
}
