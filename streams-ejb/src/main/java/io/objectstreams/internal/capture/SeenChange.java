package io.objectstreams.internal.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.internal.outbox.OutboxRow;
import io.objectstreams.internal.outbox.OutboxWriter;
import java.util.List;

/**
 * A change seen during a transaction, and the outbox row it becomes when the transaction completes. Keys are
 * resolved then, not when the change is seen: ids may be generated at insert time.
 *
 * <p>A part's change is an update of its subject's facet. Which subject is fixed when the change is seen: the
 * instance the part is attached to now, or the one it {@code left} (a subject instance from this transaction's
 * snapshot, or the subject's model and pk as last seen in an earlier transaction).
 *
 * @param entity  the changed entity, or null for a published event
 * @param subject for a part, the subject instance or an {@link OutboxWriter.Subject}; null otherwise
 * @param left    whether {@code subject} is the one the part left rather than the one it is attached to
 */
record SeenChange(Object entity, EntityType type, EventOperation op, List<String> fields, Object subject,
                  boolean left, SourceEvent event, String actor, String correlationId) {

    static SeenChange published(SourceEvent event, String actor, String correlationId) {
        return new SeenChange(null, null, event.op(), event.changedFields(), null, false, event, actor, correlationId);
    }

    static SeenChange ofObject(Object entity, EntityType type, EventOperation op, List<String> fields, String actor,
                               String correlationId) {
        return new SeenChange(entity, type, op, fields, null, false, null, actor, correlationId);
    }

    static SeenChange ofPart(Object entity, EntityType type, EventOperation op, Object subject, boolean left,
                             String actor, String correlationId) {
        return new SeenChange(entity, type, op, List.of(type.facet), subject, left, null, actor, correlationId);
    }

    /** A part attached to a subject, as opposed to the record of the subject it left. */
    boolean attachedPart() {
        return entity != null && subject != null && !left;
    }

    OutboxRow toRow() {
        if (event != null) {
            return new OutboxRow(event.model(), event.pk(), event.facet(), event.op(), event.changedFields(), actor,
                    correlationId);
        }
        if (type.isOwnSubject()) {
            return new OutboxRow(type.model, type.pk(entity), type.facet, op, fields, actor, correlationId);
        }
        if (subject instanceof OutboxWriter.Subject known) {
            return partRow(known.model(), known.pk());
        }
        EntityType subjectType = EntityType.of(subject.getClass());
        return partRow(subjectType.model, subjectType.pk(subject));
    }

    private OutboxRow partRow(String model, String pk) {
        return new OutboxRow(model, pk, type.facet, EventOperation.UPDATED, List.of(type.facet), actor, correlationId);
    }
}
