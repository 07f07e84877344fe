package io.objectstreams.internal.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.internal.outbox.OutboxRow;
import io.objectstreams.internal.outbox.OutboxWriter;
import io.objectstreams.internal.outbox.WakeupNotifier;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes of one JTA transaction, buffered until it completes.
 *
 * <p>Registered as an interposed synchronization, so {@link #beforeCompletion()} runs after the persistence
 * provider's own flush: every change, including those flushed only at commit, is here by then. It writes all
 * rows with one insert inside the transaction (G1, G4). {@link #afterCompletion(int)} asks for the wakeup
 * NOTIFY only after a commit, outside the transaction (G4); a rollback writes nothing and wakes nobody.
 *
 * <p>Entity ids may be generated at insert time, so keys are resolved in {@code beforeCompletion}, not when
 * the change is seen.
 */
final class TransactionChanges implements Synchronization {

    /** A change seen during the transaction; its subject key is resolved at completion. */
    private record Seen(Object entity, EntityType type, EventOperation op, List<String> fields, Object subject,
                        SourceEvent event, String actor, String correlationId) {
    }

    private final OutboxWriter writer;
    private final WakeupNotifier notifier;
    private final Map<Object, Object[]> snapshots = new IdentityHashMap<>();
    private final List<Seen> seen = new ArrayList<>();
    private int written;

    TransactionChanges(OutboxWriter writer, WakeupNotifier notifier) {
        this.writer = writer;
        this.notifier = notifier;
    }

    void loaded(Object entity) {
        snapshots.put(entity, EntityType.of(entity.getClass()).snapshot(entity));
    }

    void entityChanged(Object entity, EventOperation op, String actor, String correlationId) {
        EntityType type = EntityType.of(entity.getClass());
        List<String> fields = List.of();
        Object previousSubject = null;
        if (op == EventOperation.UPDATED) {
            Object[] before = snapshots.get(entity);
            // Without a snapshot (the instance was loaded outside this transaction) every attribute may have changed.
            fields = before == null ? type.attributeNames() : type.changedSince(before, entity);
            if (fields.isEmpty()) {
                return;
            }
            previousSubject = previousSubject(type, before, entity, fields);
        }
        if (op != EventOperation.DELETED) {
            snapshots.put(entity, type.snapshot(entity));
        }
        seen.add(new Seen(entity, type, op, fields, null, null, actor, correlationId));
        if (previousSubject != null) {
            seen.add(new Seen(entity, type, EventOperation.UPDATED, fields, previousSubject, null, actor, correlationId));
        }
    }

    void published(SourceEvent event, String actor, String correlationId) {
        seen.add(new Seen(null, null, event.op(), event.changedFields(), null, event, actor, correlationId));
    }

    @Override
    public void beforeCompletion() {
        Coalescer coalescer = new Coalescer();
        for (Seen change : seen) {
            coalescer.add(resolve(change));
        }
        List<OutboxRow> rows = coalescer.rows();
        if (!rows.isEmpty()) {
            writer.insert(rows);
            written = rows.size();
        }
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED && written > 0) {
            notifier.wakeup();
        }
    }

    private static OutboxRow resolve(Seen change) {
        if (change.event() != null) {
            SourceEvent e = change.event();
            return new OutboxRow(e.model(), e.pk(), e.facet(), e.op(), e.changedFields(), change.actor(),
                    change.correlationId());
        }
        EntityType type = change.type();
        if (type.isOwnSubject()) {
            return new OutboxRow(type.model, type.pk(change.entity()), type.facet, change.op(), change.fields(),
                    change.actor(), change.correlationId());
        }
        // A part of another object: the change is an update of its subject's facet.
        Object subject = change.subject() != null ? change.subject() : type.subject.orElseThrow().read(change.entity());
        if (subject == null) {
            throw new io.objectstreams.StreamsException("capture_failed", "Cannot capture a change of "
                    + type.entityClass.getName() + ": its subject attribute '" + type.subject.orElseThrow().name
                    + "' is null");
        }
        EntityType subjectType = EntityType.of(subject.getClass());
        return new OutboxRow(subjectType.model, subjectType.pk(subject), type.facet, EventOperation.UPDATED,
                List.of(type.facet), change.actor(), change.correlationId());
    }

    /** When a part moves to another subject, the subject it left changed too. */
    private static Object previousSubject(EntityType type, Object[] before, Object entity, List<String> fields) {
        if (type.isOwnSubject() || before == null) {
            return null;
        }
        Attribute subject = type.subject.orElseThrow();
        if (!fields.contains(subject.name)) {
            return null;
        }
        Object old = before[type.indexOf(subject)];
        return old instanceof Attribute.Identity identity ? identity.target() : null;
    }
}
