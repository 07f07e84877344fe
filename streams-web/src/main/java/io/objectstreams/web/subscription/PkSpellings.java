package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Events whose pk is a key of their model spelled another way ({@code "007"} for {@code 7}, an upper-case UUID, a
 * composite key with other spacing), as a row written by hand may spell it: delivered under the spelling
 * subscriptions and visibility use, so that they reach the subject's subscriptions instead of nobody (G16). A pk
 * that can be no key is left to {@link UndecidablePks}.
 */
final class PkSpellings {

    private PkSpellings() {
    }

    /** {@code events}, with each pk as {@code canonical} spells it; the same list when every one is spelled so. */
    static List<StreamEvent> spelled(List<StreamEvent> events, BinaryOperator<String> canonical) {
        List<StreamEvent> spelled = null;
        for (int i = 0; i < events.size(); i++) {
            StreamEvent event = events.get(i);
            String pk = canonical.apply(event.model(), event.pk());
            if (pk != null && !pk.equals(event.pk())) {
                if (spelled == null) {
                    spelled = new ArrayList<>(events);
                }
                spelled.set(i, new StreamEvent(event.cursor(), event.model(), pk, event.facet(), event.op(),
                        event.changedFields(), event.transactionId(), event.actor(), event.correlationId(),
                        event.recordedAt(), event.traceparent()));
            }
        }
        return spelled == null ? events : spelled;
    }
}
