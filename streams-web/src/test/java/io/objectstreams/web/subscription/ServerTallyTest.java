package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.Scope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 26, item 4: what all subscriptions of an instance hold together is bounded server-wide (G15). */
class ServerTallyTest {

    private static Scope scope(String user) {
        return new Scope(new Viewer(user, Set.of()), "m", Filter.NONE);
    }

    private static StreamEvent row(long cursor, String pk, EventOperation op) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(), 1, "alice", null, Instant.EPOCH);
    }

    @Test
    void aNewScopePastTheMaximumIsRefusedAndASharedOneIsNot() throws ProtocolError {
        ServerTally tally = new ServerTally(2, 100);
        tally.hold(scope("alice"));
        tally.hold(scope("bob"));
        tally.hold(scope("alice"));
        assertThatThrownBy(() -> tally.hold(scope("carol"))).isInstanceOfSatisfying(ProtocolError.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED));
        tally.release(scope("bob"));
        tally.hold(scope("carol"));
        tally.release(scope("alice"));
        assertThat(tally.scopes()).as("alice is still held once").isEqualTo(2);
    }

    @Test
    void membersAreCountedAsSubscriptionsGainAndLoseThemAndReturnedWhenTheyEnd() throws ProtocolError {
        ServerTally tally = new ServerTally(10, 5);
        Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null,
                "s", null, null, null), new Scope(new Viewer("alice", Set.of()), "m", Filter.NONE), tally);
        tally.hold(subscription.scope());
        subscription.start(Set.of("1", "2"), 10);
        subscription.effect(row(11, "3", EventOperation.CREATED), true);
        subscription.effect(row(12, "3", EventOperation.UPDATED), true);
        subscription.effect(row(13, "1", EventOperation.DELETED), false);
        subscription.effect(row(14, "9", EventOperation.UPDATED), false);
        assertThat(tally.memberPks()).isEqualTo(2);
        tally.checkMembers(3);
        assertThatThrownBy(() -> tally.checkMembers(4)).isInstanceOfSatisfying(ProtocolError.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMBER_LIMIT_EXCEEDED));
        subscription.reread(Set.of("1", "2", "3", "4"));
        assertThat(tally.memberPks()).isEqualTo(4);
        subscription.release();
        assertThat(tally.memberPks()).isZero();
        assertThat(tally.scopes()).isZero();

        // Released twice, or changed after its release (a close inside its own start): nothing is counted again.
        subscription.release();
        subscription.effect(row(20, "7", EventOperation.CREATED), true);
        assertThat(tally.memberPks()).isZero();
    }
}
