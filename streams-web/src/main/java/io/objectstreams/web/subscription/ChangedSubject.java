package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One subject's changes in a replayed range, coalesced into the event a replay sends: the latest row's cursor,
 * op and metadata, every field changed in the range, {@code created} when the subject was created in it.
 *
 * @param event        the coalesced event
 * @param createdSince the subject was created after the client's cursor
 */
record ChangedSubject(StreamEvent event, boolean createdSince) {

    String pk() {
        return event.pk();
    }

    boolean deleted() {
        return event.op() == EventOperation.DELETED;
    }

    /** Rows in cursor order, coalesced per subject, in the order of each subject's first row. */
    static Map<String, ChangedSubject> coalesce(List<StreamEvent> rows) {
        Map<String, List<StreamEvent>> bySubject = new LinkedHashMap<>();
        for (StreamEvent row : rows) {
            bySubject.computeIfAbsent(row.pk(), pk -> new java.util.ArrayList<>()).add(row);
        }
        Map<String, ChangedSubject> coalesced = new LinkedHashMap<>();
        bySubject.forEach((pk, events) -> {
            StreamEvent last = events.get(events.size() - 1);
            boolean created = events.stream().anyMatch(e -> e.op() == EventOperation.CREATED);
            Set<String> fields = new LinkedHashSet<>();
            events.forEach(e -> fields.addAll(e.changedFields()));
            EventOperation op = last.op() != EventOperation.DELETED && created ? EventOperation.CREATED : last.op();
            coalesced.put(pk, new ChangedSubject(new StreamEvent(last.cursor(), last.model(), last.pk(), last.facet(), op,
                    List.copyOf(fields), last.transactionId(), last.actor(), last.correlationId(), last.recordedAt(),
                    last.traceparent()),
                    created));
        });
        return coalesced;
    }
}
