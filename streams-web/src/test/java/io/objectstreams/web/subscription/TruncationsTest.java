package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.web.LoggedRecords;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * The events no visibility check can decide: a truncated table ({@link Truncations}) and a pk that can be no key of
 * its model ({@link UndecidablePks}); which models they concern, and what the rest of the batch keeps.
 */
class TruncationsTest {

    /** Orders have numeric keys: "x7" can be no key of one; notes take any text. */
    private static final BinaryOperator<String> CANONICAL = (model, pk) -> model.equals("store.Order")
            ? (pk.matches("\\d+") ? String.valueOf(Long.parseLong(pk)) : null) : pk;

    private static StreamEvent event(long cursor, String model, String pk, EventOperation op) {
        return new StreamEvent(cursor, model, pk, null, op, List.of(), 100 + cursor, null, null, null, null);
    }

    @Test
    void aTruncationConcernsItsModelAndTakesTheModelsOtherEventsOutOfTheBatch() {
        List<StreamEvent> events = List.of(event(1, "store.Order", "7", EventOperation.UPDATED),
                event(2, "store.Note", "a", EventOperation.CREATED),
                event(3, "store.Order", "", EventOperation.TRUNCATED),
                event(4, "store.Order", "8", EventOperation.CREATED));

        assertThat(Truncations.any(events)).isTrue();
        assertThat(Truncations.models(events)).containsExactly("store.Order");
        assertThat(Truncations.without(events, Set.of("store.Order"))).extracting(StreamEvent::cursor)
                .containsExactly(2L);
        List<StreamEvent> none = events.subList(0, 2);
        assertThat(Truncations.any(none)).isFalse();
        assertThat(Truncations.models(none)).isEmpty();
        assertThat(Truncations.without(none, Set.of())).isSameAs(none);
    }

    @Test
    void aPkThatCanBeNoKeyConcernsItsModelIsLeftOutAndIsLoggedAtMostOnceAMinute() {
        try (LoggedRecords log = LoggedRecords.of(UndecidablePks.class)) {
            List<LogRecord> logged = log.records();
            List<StreamEvent> events = List.of(event(1, "store.Order", "7", EventOperation.UPDATED),
                    event(2, "store.Order", "x7", EventOperation.UPDATED),
                    event(3, "store.Note", "x7", EventOperation.CREATED),
                    event(4, "store.Order", "", EventOperation.TRUNCATED),
                    event(5, "store.Order", "y8", EventOperation.DELETED));

            assertThat(UndecidablePks.models(events, CANONICAL)).containsExactly("store.Order");
            assertThat(UndecidablePks.without(Truncations.without(events, Set.of()), CANONICAL))
                    .extracting(StreamEvent::cursor).containsExactly(1L, 3L);
            // Two such rows, one warning: the next within the minute is counted, not logged.
            assertThat(logged).hasSize(1);
            assertThat(logged.get(0).getMessage()).contains("Outbox row 2 of store.Order").contains("'x7'")
                    .contains("delivery_failed");
            assertThat(UndecidablePks.models(events.subList(0, 1), CANONICAL)).isEmpty();
        }
    }
}
