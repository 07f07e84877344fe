package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One subject's changes in a replayed range, coalesced into the event a replay sends: the latest row's cursor,
 * op and metadata, every field changed in the range, {@code created} when the subject was created in it.
 *
 * <p>A subject was created since the cursor only if its first row in the range creates it. A pk that was deleted and
 * created again (a natural or application-assigned key, a key updated and set back) existed at the cursor: the client
 * may hold the old one, so it is not new to the client, whatever the last row says (G10).
 *
 * @param event        the coalesced event
 * @param createdSince the subject did not exist at the client's cursor
 * @param changedSince what the rows of later transactions than the subject's first in the range changed
 *                     ({@link BatchSteps#changes}): for a subject created since the cursor, whether what decides its
 *                     membership may differ from when a read could first see it
 */
record ChangedSubject(StreamEvent event, boolean createdSince, Set<String> changedSince) {

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
            bySubject.computeIfAbsent(row.pk(), pk -> new ArrayList<>()).add(row);
        }
        Map<String, ChangedSubject> coalesced = new LinkedHashMap<>();
        bySubject.forEach((pk, events) -> {
            StreamEvent last = events.get(events.size() - 1);
            boolean created = events.stream().anyMatch(e -> e.op() == EventOperation.CREATED);
            boolean createdSince = events.get(0).op() == EventOperation.CREATED;
            // The fields of the object the pk names at the end: a delete before the last row ends the one before it.
            int current = 0;
            for (int i = 0; i < events.size() - 1; i++) {
                if (events.get(i).op() == EventOperation.DELETED) {
                    current = i + 1;
                }
            }
            // Rows of the first row's own transaction count as one with it: no read sees between them (trigger rows
            // of an insert and its update, a part written with its parent).
            Set<String> changedSince = new LinkedHashSet<>();
            events.stream().filter(e -> e.transactionId() != events.get(0).transactionId())
                    .forEach(e -> changedSince.addAll(BatchSteps.changes(e)));
            Set<String> fields = new LinkedHashSet<>();
            events.subList(current, events.size()).forEach(e -> fields.addAll(e.changedFields()));
            EventOperation op = last.op() != EventOperation.DELETED && created ? EventOperation.CREATED : last.op();
            coalesced.put(pk, new ChangedSubject(new StreamEvent(last.cursor(), last.model(), last.pk(), last.facet(),
                    op, List.copyOf(fields), last.transactionId(), last.actor(), last.correlationId(),
                    last.recordedAt(), last.traceparent()),
                    createdSince, Set.copyOf(changedSince)));
        });
        return coalesced;
    }
}
