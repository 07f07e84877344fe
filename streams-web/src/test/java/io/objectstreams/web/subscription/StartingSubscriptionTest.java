package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ResyncReason;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 26, item 8: what a subscription resumed without members does with the events buffered while it starts. */
class StartingSubscriptionTest {

    private static StreamEvent row(long cursor, String pk, EventOperation op) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(), 1, "alice", null, Instant.EPOCH);
    }

    private static StartingSubscription buffering(StreamEvent... events) {
        StartingSubscription starting = new StartingSubscription(1 << 20);
        for (StreamEvent event : events) {
            starting.buffer(event, event.pk().startsWith("match"));
        }
        return starting;
    }

    @Test
    void anObjectThatLeftBeforeTheMembersWereReadResyncsThroughTheBufferedEvents() {
        StartingSubscription starting = buffering(row(11, "matching", EventOperation.UPDATED),
                row(12, "left", EventOperation.UPDATED), row(13, "matching", EventOperation.UPDATED));
        starting.resyncIfUnaccounted(Set.of("matching")::contains);
        assertThat(starting.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
        assertThat(starting.resyncCursor()).isEqualTo(13);
        assertThat(starting.buffered()).isEmpty();
    }

    @Test
    void aDeletedObjectTheClientMayHaveHeldResyncsToo() {
        StartingSubscription starting = buffering(row(11, "gone", EventOperation.DELETED));
        starting.resyncIfUnaccounted(pk -> false);
        assertThat(starting.resyncReason()).isEqualTo(ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
    }

    @Test
    void membersMatchesAndObjectsCreatedMeanwhileNeedNoResync() {
        StartingSubscription starting = buffering(row(11, "member", EventOperation.UPDATED),
                row(12, "matching", EventOperation.UPDATED), row(13, "new", EventOperation.CREATED));
        starting.resyncIfUnaccounted(Set.of("member")::contains);
        assertThat(starting.resyncReason()).isNull();
        assertThat(starting.buffered()).hasSize(3);
    }
}
