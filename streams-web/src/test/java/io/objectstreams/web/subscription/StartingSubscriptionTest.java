package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.feed.TransactionSnapshot;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 8: a subscription resumed without members reads them after it registered. An event of a
 * transaction those members saw, about an object that neither matches nor is a member and was not created by it,
 * may concern an object the client held: it is unaccounted for, and the subscription must resync. Such an event
 * can arrive while the subscription starts (buffered) or after it started (delivery was behind the database); the
 * soak found the second case.
 */
class StartingSubscriptionTest {

    /** Transactions below 100 had ended; 100 to 109 had too, except 105; 110 and later had not begun. */
    private static final TransactionSnapshot READ_AT = new TransactionSnapshot(100, 110, new long[] {105});

    private static StreamEvent row(long cursor, String pk, EventOperation op, long transaction) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(), transaction, "alice", null, Instant.EPOCH);
    }

    private static Subscription resumedWithoutMembers(Set<String> members) {
        Subscription subscription = new Subscription("s", new SubscribeRequest(SubscriptionKind.MODEL, "m", null, null,
                "s", 10L, null, null), Filter.NONE, Viewer.anonymous());
        subscription.start(members, 10);
        subscription.watchUnaccounted(READ_AT);
        return subscription;
    }

    @Test
    void anObjectThatLeftBeforeTheMembersWereReadIsUnaccountedForOnce() {
        Subscription subscription = resumedWithoutMembers(Set.of("member"));
        assertThat(subscription.unaccounted(row(11, "left", EventOperation.UPDATED, 99), false)).isTrue();
        assertThat(subscription.unaccounted(row(12, "left too", EventOperation.UPDATED, 101), false))
                .as("the resync reads the members again: once is enough").isFalse();
    }

    @Test
    void aDeletedObjectTheClientMayHaveHeldIsUnaccountedForToo() {
        assertThat(resumedWithoutMembers(Set.of()).unaccounted(row(11, "gone", EventOperation.DELETED, 109), false)).isTrue();
    }

    @Test
    void membersMatchesCreationsAndLaterTransactionsAreAccountedFor() {
        Subscription subscription = resumedWithoutMembers(Set.of("member"));
        assertThat(subscription.unaccounted(row(11, "member", EventOperation.UPDATED, 99), false)).as("a member").isFalse();
        assertThat(subscription.unaccounted(row(12, "other", EventOperation.UPDATED, 99), true)).as("matches").isFalse();
        assertThat(subscription.unaccounted(row(13, "new", EventOperation.CREATED, 99), false)).as("created").isFalse();
        assertThat(subscription.unaccounted(row(14, "other", EventOperation.UPDATED, 105), false))
                .as("in progress when the members were read: they show the object before it").isFalse();
        assertThat(subscription.unaccounted(row(15, "other", EventOperation.UPDATED, 110), false))
                .as("begun after the members were read").isFalse();
    }

    @Test
    void aResyncEndsTheWatch() {
        Subscription subscription = resumedWithoutMembers(Set.of());
        subscription.skipThrough(11);
        assertThat(subscription.unaccounted(row(12, "left", EventOperation.UPDATED, 99), false)).isFalse();
        Subscription reread = resumedWithoutMembers(Set.of());
        reread.reread(Set.of());
        assertThat(reread.unaccounted(row(12, "left", EventOperation.UPDATED, 99), false)).isFalse();
    }

    @Test
    void aSubscriptionWithMembersOrUnwatchedNeverIs() {
        Subscription subscription = resumedWithoutMembers(Set.of());
        subscription.watchUnaccounted(null);
        assertThat(subscription.unaccounted(row(11, "left", EventOperation.UPDATED, 99), false)).isFalse();
    }

    @Test
    void theSnapshotReadsAsPostgreSqlWritesIt() {
        TransactionSnapshot snapshot = TransactionSnapshot.parse("100:110:107,105");
        assertThat(snapshot.sees(99)).isTrue();
        assertThat(snapshot.sees(104)).isTrue();
        assertThat(snapshot.sees(105)).isFalse();
        assertThat(snapshot.sees(107)).isFalse();
        assertThat(snapshot.sees(110)).isFalse();
        assertThat(TransactionSnapshot.parse("100:100:").sees(99)).isTrue();
    }
}
