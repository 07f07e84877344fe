package io.objectstreams.web.subscription;

import io.objectstreams.protocol.SubscriptionKind;
import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.web.filter.Filter;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Membership classification: what {@code list_action} an event means for a subscription (G9). */
class SubscriptionTest {

    private static StreamEvent event(long cursor, String pk, EventOperation op) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(), 1, null, null, Instant.now());
    }

    private static Subscription started(Set<String> members, long cursor) {
        Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null, "s", null, null,
                null), Filter.NONE, io.objectstreams.Viewer.anonymous());
        subscription.start(members, cursor);
        return subscription;
    }

    @Test
    void theTableOfBelongedAndMatchesNow() {
        Subscription s = started(Set.of("in"), 0);
        assertThat(s.effect(event(1, "in", EventOperation.UPDATED), true)).isEqualTo(ListAction.CHANGED);
        assertThat(s.effect(event(2, "out", EventOperation.CREATED), true)).isEqualTo(ListAction.ADDED);
        assertThat(s.effect(event(3, "out", EventOperation.UPDATED), true)).as("now a member").isEqualTo(ListAction.CHANGED);
        assertThat(s.effect(event(4, "out", EventOperation.UPDATED), false)).isEqualTo(ListAction.REMOVED);
        assertThat(s.effect(event(5, "out", EventOperation.UPDATED), false)).as("no longer a member").isNull();
        assertThat(s.effect(event(6, "in", EventOperation.DELETED), false)).isEqualTo(ListAction.DELETED);
        assertThat(s.effect(event(7, "in", EventOperation.DELETED), false)).as("deleted twice").isNull();
        assertThat(s.effect(event(8, "never", EventOperation.DELETED), false)).isNull();
    }

    @Test
    void eventsAtOrBeforeWhatWasSentAreNotSentAgain() {
        Subscription s = started(Set.of("in"), 10);
        assertThat(s.effect(event(10, "in", EventOperation.UPDATED), true)).isNull();
        assertThat(s.effect(event(11, "in", EventOperation.UPDATED), true)).isEqualTo(ListAction.CHANGED);
        assertThat(s.effect(event(11, "in", EventOperation.UPDATED), true)).isNull();
        s.skipThrough(20);
        assertThat(s.effect(event(15, "in", EventOperation.UPDATED), true)).as("covered by a resync").isNull();
        assertThat(s.effect(event(21, "in", EventOperation.UPDATED), true)).isEqualTo(ListAction.CHANGED);
    }

    @Test
    void anObjectSubscriptionConcernsOnlyItsObject() {
        Subscription object = new Subscription("o", new SubscribeRequest(SubscriptionKind.OBJECT, "m", "1", null, "o", null, null, null),
                Filter.NONE, io.objectstreams.Viewer.anonymous());
        assertThat(object.concerns(event(1, "1", EventOperation.UPDATED))).isTrue();
        assertThat(object.concerns(event(1, "2", EventOperation.UPDATED))).isFalse();
        assertThat(started(Set.of(), 0).concerns(new StreamEvent(1, "other", "1", "object", EventOperation.UPDATED,
                List.of(), 1, null, null, Instant.now()))).isFalse();
    }
}
