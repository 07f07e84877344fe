package io.objectstreams.internal.capture;

import static io.objectstreams.EventOperation.CREATED;
import static io.objectstreams.EventOperation.DELETED;
import static io.objectstreams.EventOperation.UPDATED;
import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.internal.outbox.OutboxRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoalescerTest {

    private final Coalescer coalescer = new Coalescer();

    private void add(String pk, String facet, EventOperation op, String... fields) {
        coalescer.add(new OutboxRow("m", pk, facet, op, List.of(fields), "alice", "c1"));
    }

    @Test
    void createThenUpdateIsCreatedWithoutFields() {
        add("1", "object", CREATED);
        add("1", "object", UPDATED, "status");

        assertThat(coalescer.rows()).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo(CREATED);
            assertThat(row.changedFields()).isEmpty();
        });
    }

    @Test
    void updateThenUpdateIsUpdatedWithTheUnionInFirstSeenOrder() {
        add("1", "object", UPDATED, "status", "note");
        add("1", "object", UPDATED, "total", "status");

        assertThat(coalescer.rows()).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo(UPDATED);
            assertThat(row.changedFields()).containsExactly("status", "note", "total");
        });
    }

    @Test
    void updateThenDeleteIsDeleted() {
        add("1", "object", UPDATED, "status");
        add("1", "object", DELETED);

        assertThat(coalescer.rows()).singleElement().satisfies(row -> {
            assertThat(row.op()).isEqualTo(DELETED);
            assertThat(row.changedFields()).isEmpty();
        });
    }

    @Test
    void createThenDeleteIsNothingAndTakesItsFacetRowsWithIt() {
        add("1", "object", CREATED);
        add("1", "lines", UPDATED, "lines");
        add("1", "object", DELETED);

        assertThat(coalescer.rows()).isEmpty();
    }

    @Test
    void facetRowsOfACreatedOrDeletedSubjectAreFoldedAway() {
        add("1", "object", CREATED);
        add("1", "lines", UPDATED, "lines");
        add("2", "lines", UPDATED, "lines");
        add("2", "object", DELETED);
        add("3", "lines", UPDATED, "lines");

        assertThat(coalescer.rows()).extracting(OutboxRow::pk, OutboxRow::facet, OutboxRow::op)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("1", "object", CREATED),
                        org.assertj.core.groups.Tuple.tuple("2", "object", DELETED),
                        org.assertj.core.groups.Tuple.tuple("3", "lines", UPDATED));
    }

    @Test
    void differentSubjectsAndFacetsStaySeparateInFirstSeenOrder() {
        add("2", "object", UPDATED, "a");
        add("1", "object", UPDATED, "b");
        add("2", "workflow", UPDATED, "state");

        assertThat(coalescer.rows()).extracting(OutboxRow::pk, OutboxRow::facet)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("2", "object"),
                        org.assertj.core.groups.Tuple.tuple("1", "object"),
                        org.assertj.core.groups.Tuple.tuple("2", "workflow"));
    }

    @Test
    void theLatestActionOwnsTheRow() {
        coalescer.add(new OutboxRow("m", "1", "object", UPDATED, List.of("a"), "alice", "c1"));
        coalescer.add(new OutboxRow("m", "1", "object", UPDATED, List.of("b"), "carol", "c2"));

        assertThat(coalescer.rows()).singleElement().satisfies(row -> {
            assertThat(row.actor()).isEqualTo("carol");
            assertThat(row.correlationId()).isEqualTo("c2");
        });
    }

    @Test
    void deletedThenWrittenAgainIsAnUpdate() {
        assertThat(Coalescer.fold(DELETED, CREATED)).isEqualTo(UPDATED);
        assertThat(Coalescer.fold(CREATED, DELETED)).isNull();
        assertThat(Coalescer.fold(CREATED, UPDATED)).isEqualTo(CREATED);
        assertThat(Coalescer.fold(UPDATED, DELETED)).isEqualTo(DELETED);
    }
}
