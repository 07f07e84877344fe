package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangedSubjectTest {

    private static StreamEvent row(long cursor, String pk, EventOperation op, String... fields) {
        return new StreamEvent(cursor, "m", pk, "object", op, List.of(fields), cursor, "alice", null, Instant.EPOCH);
    }

    @Test
    void eachSubjectOnceAtItsLatestCursorWithEveryChangedField() {
        Map<String, ChangedSubject> changed = ChangedSubject.coalesce(List.of(
                row(1, "a", EventOperation.UPDATED, "status"),
                row(2, "b", EventOperation.CREATED, "status", "total"),
                row(3, "a", EventOperation.UPDATED, "note"),
                row(4, "b", EventOperation.UPDATED, "note"),
                row(5, "c", EventOperation.UPDATED, "note"),
                row(6, "c", EventOperation.DELETED)));

        assertThat(changed).containsOnlyKeys("a", "b", "c");
        ChangedSubject a = changed.get("a");
        assertThat(a.event().cursor()).isEqualTo(3);
        assertThat(a.event().changedFields()).containsExactly("status", "note");
        assertThat(a.event().op()).isEqualTo(EventOperation.UPDATED);
        assertThat(a.createdSince()).isFalse();

        ChangedSubject b = changed.get("b");
        assertThat(b.event().cursor()).isEqualTo(4);
        assertThat(b.event().op()).as("created, then updated, is a creation").isEqualTo(EventOperation.CREATED);
        assertThat(b.createdSince()).isTrue();
        assertThat(b.changedSince()).as("what the rows after its create changed").containsExactly("note");

        ChangedSubject c = changed.get("c");
        assertThat(c.deleted()).isTrue();
        assertThat(c.changedSince()).as("a delete may change anything").containsExactly(BatchSteps.ANY);
        assertThat(c.event().cursor()).isEqualTo(6);
    }

    /**
     * Found in review: a pk deleted and created again in the span (a restored id) coalesced the old object's changed
     * fields into the new object's event, telling its viewer which fields another user had edited on the old one.
     */
    @Test
    void aPkCreatedAgainCarriesOnlyTheNewObjectsFields() {
        ChangedSubject again = ChangedSubject.coalesce(List.of(
                row(1, "a", EventOperation.UPDATED, "total"),
                row(2, "a", EventOperation.DELETED),
                row(3, "a", EventOperation.CREATED),
                row(4, "a", EventOperation.UPDATED, "status"))).get("a");
        assertThat(again.event().changedFields()).containsExactly("status");
        assertThat(again.event().op()).isEqualTo(EventOperation.CREATED);
        assertThat(again.createdSince()).as("the pk existed at the cursor").isFalse();
    }
}
