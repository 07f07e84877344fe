package io.objectstreams.internal.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.Streamed;
import io.objectstreams.StreamsException;
import io.objectstreams.internal.outbox.OutboxRow;
import io.objectstreams.internal.outbox.OutboxWriter;
import io.objectstreams.internal.outbox.WakeupNotifier;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * The changes of one JTA transaction, buffered until it completes.
 *
 * <p>The rows are written with one insert inside the transaction (G1, G4), at the last moment every change is
 * known: under EclipseLink through its own connection, from {@link #writeThrough} just before it commits its writes
 * (the server may not enlist a second connection); otherwise at completion. The providers flush from interposed
 * synchronizations of their own (Hibernate on WildFly, EclipseLink on Payara), which run in the order they were
 * registered; ours is registered at the first change or publish, which may come before the provider's. So our
 * {@link #beforeCompletion()} registers a second synchronization behind every one registered so far and writes
 * from there, after the providers' flushes. Whatever is still recorded after that is written at once (or fails the
 * transaction): nothing recorded inside the transaction is dropped. {@link #afterCompletion(int)} asks for the
 * wakeup NOTIFY only after a commit, outside the transaction (G4); a rollback writes nothing and wakes nobody.
 *
 * <p>Entity ids may be generated at insert time, so keys are resolved when the rows are written, not when the
 * change is seen.
 */
final class TransactionChanges implements Synchronization {

    private static final Logger LOG = Logger.getLogger(TransactionChanges.class.getName());

    private final OutboxWriter writer;
    private final WakeupNotifier notifier;
    private final PartSubjects partSubjects;
    private final Map<Object, Object[]> snapshots = new IdentityHashMap<>();
    private final List<SeenChange> seen = new ArrayList<>();
    /** How many of {@link #seen} are already in the outbox. */
    private int recorded;
    private int written;
    /** {@link #beforeCompletion()} has run: what is recorded from now on is written at once. */
    private boolean completing;
    /** Registers a synchronization behind those registered so far; false if the transaction refuses. */
    private final Predicate<Synchronization> deferral;
    private boolean deferred;
    /** A trigger-captured entity changed: the rows its trigger wrote are owed this action's metadata. */
    private boolean tagOwed;
    /**
     * The subjects with parts captured by trigger that this transaction created or deleted through JPA: their parts'
     * trigger rows are dropped when one comes (EclipseLink deletes an orphan-removed collection with no callback).
     */
    private final Set<OutboxWriter.Subject> bornOrGone = new HashSet<>();
    private boolean newBornOrGone;
    private final Predicate<String> partsByTrigger;
    private String tagActor;
    private String tagCorrelationId;

    /**
     * @param deferral registers an interposed synchronization during completion, behind every one registered so
     *                 far; returns false where the transaction manager refuses it
     */
    TransactionChanges(OutboxWriter writer, WakeupNotifier notifier, Predicate<Synchronization> deferral,
                       Predicate<String> partsByTrigger, PartSubjects partSubjects) {
        this.partsByTrigger = partsByTrigger;
        this.partSubjects = partSubjects;
        this.writer = writer;
        this.notifier = notifier;
        this.deferral = deferral;
    }

    void loaded(Object entity) {
        snapshots.put(entity, EntityType.of(entity.getClass()).snapshot(entity));
    }

    void entityChanged(Object entity, EventOperation op, String actor, String correlationId) {
        EntityType type = EntityType.of(entity.getClass());
        Object[] before = snapshots.get(entity);
        List<String> fields = List.of();
        if (op == EventOperation.UPDATED) {
            // Without a snapshot (the instance was loaded outside this transaction) every attribute may have changed.
            fields = before == null ? type.attributeNames() : type.changedSince(before, entity);
            if (fields.isEmpty()) {
                return;
            }
        }
        if (op != EventOperation.DELETED) {
            snapshots.put(entity, type.snapshot(entity));
        }
        if (type.isOwnSubject()) {
            seen.add(SeenChange.ofObject(entity, type, op, fields, actor, correlationId));
        } else {
            partChanged(entity, type, op, before, actor, correlationId);
        }
        writeIfLate();
    }

    /**
     * A part's change is reported on the subject it is attached to and on the one it left, if any (G16): the
     * bidirectional helper nulls the parent before orphan removal deletes the part, an optional part may be
     * detached, and a part may move and be removed in one flush. The subject it left is this transaction's snapshot
     * of it or, for an instance loaded in an earlier transaction, the one {@link PartSubjects} last saw. A part
     * attached to nothing, before and after, is part of no subject's state: there is no one to tell.
     */
    private void partChanged(Object entity, EntityType type, EventOperation op, Object[] before, String actor,
                             String correlationId) {
        Object now = type.subject.orElseThrow().read(entity);
        if (now != null) {
            seen.add(SeenChange.ofPart(entity, type, op, now, false, actor, correlationId));
        }
        Object left = before != null ? subjectIn(type, before) : partSubjects.lastKnown(entity);
        if (left != null && left != now) {
            // Two rows for one subject (a lookup that found the same one) coalesce into one.
            seen.add(SeenChange.ofPart(entity, type, op, left, true, actor, correlationId));
        }
        if (now == null && (op == EventOperation.DELETED || left != null)) {
            partSubjects.remember(entity, null);
        }
    }

    /**
     * A change of an entity its table's trigger captures: no row is recorded here, but the rows the trigger wrote in
     * this transaction get the action's actor and correlation id, as the entity listener's rows do.
     */
    void triggerCaptured(String actor, String correlationId) {
        // The first action's: a change flushed at commit, after its action closed, knows only the caller.
        tagActor = tagActor != null ? tagActor : actor;
        tagCorrelationId = tagCorrelationId != null ? tagCorrelationId : correlationId;
        tagOwed = true;
        if (completing) {
            writeAtCompletion(); // a late flush: tag now, while the transaction is still open
        }
    }

    void published(SourceEvent event, String actor, String correlationId) {
        seen.add(SeenChange.published(event, actor, correlationId));
        writeIfLate();
    }

    /**
     * A change recorded after {@link #beforeCompletion()} ran comes from a synchronization that completes after
     * ours: under Hibernate, the provider's flush when the transaction used Object Streams (a publish) before it
     * first used the entity manager. The transaction is still open, so the change is written at once, in it
     * (G1); if that write fails, the exception fails the flush and so the transaction, never dropping the change.
     */
    private void writeIfLate() {
        if (completing && !awaitsProviderCommit()) {
            writeAtCompletion();
        }
    }

    /**
     * EclipseLink writes through its own connection when it commits, right after its flush: a woven entity's
     * change recorded late is left to {@link #writeThrough}. On Payara a second connection could commit it apart
     * from the data, or lose it (OutboxWriter#mayBeOutsideTheTransaction).
     */
    private boolean awaitsProviderCommit() {
        SeenChange last = seen.get(seen.size() - 1);
        return last.entity() != null && isEclipseLinkEntity(last.entity().getClass());
    }

    /** The persistence provider commits through {@code connection}: write what is recorded so far through it. */
    void writeThrough(Connection connection) {
        List<OutboxRow> rows = pendingRows();
        if (!rows.isEmpty()) {
            writer.insert(rows, connection);
            written += rows.size();
        }
        if (triggerRowsOwed()) {
            writer.completeTriggerRows(connection, tagOwed ? tagActor : null, tagOwed ? tagCorrelationId : null,
                    dropsOwed());
            tagOwed = false;
            newBornOrGone = false;
        }
    }

    /**
     * Writes what the provider did not write through its own connection: events published in a transaction where
     * no entity changed (or all of them, under a provider without a commit hook, such as Hibernate).
     */
    @Override
    public void beforeCompletion() {
        if (!deferred && (recorded < seen.size() || tagOwed)) {
            deferred = true;
            if (deferral.test(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    TransactionChanges.this.beforeCompletion();
                }

                @Override
                public void afterCompletion(int status) {
                }
            })) {
                return;
            }
        }
        completing = true;
        writeAtCompletion();
    }

    private void writeAtCompletion() {
        requireProviderHookWhereNeeded();
        List<OutboxRow> rows = pendingRows();
        if (!rows.isEmpty()) {
            writer.insertAtCompletion(rows);
            written += rows.size();
        }
        if (triggerRowsOwed() && writer.completeTriggerRowsAtCompletion(tagOwed ? tagActor : null,
                tagOwed ? tagCorrelationId : null, dropsOwed())) {
            tagOwed = false;
            newBornOrGone = false;
        }
    }

    private boolean triggerRowsOwed() {
        return tagOwed || newBornOrGone;
    }

    private List<OutboxWriter.Subject> dropsOwed() {
        return List.copyOf(bornOrGone);
    }

    private List<OutboxRow> pendingRows() {
        Coalescer coalescer = new Coalescer();
        for (SeenChange change : seen.subList(recorded, seen.size())) {
            OutboxRow row = change.toRow();
            coalescer.add(row);
            if (change.attachedPart()) {
                partSubjects.remember(change.entity(), change.op() == EventOperation.DELETED ? null
                        : new OutboxWriter.Subject(row.model(), row.pk()));
            }
            if (row.op() != EventOperation.UPDATED && Streamed.OBJECT_FACET.equals(row.facet())
                    && partsByTrigger.test(row.model())) {
                newBornOrGone |= bornOrGone.add(new OutboxWriter.Subject(row.model(), row.pk()));
            }
        }
        recorded = seen.size();
        return coalescer.rows();
    }

    /**
     * An EclipseLink entity change still pending here means the unit's commit hook is missing: writing through a
     * second connection could commit the rows apart from the data on Payara, or lose them: the transaction fails.
     */
    private void requireProviderHookWhereNeeded() {
        for (SeenChange change : seen.subList(recorded, seen.size())) {
            if (change.entity() != null && isEclipseLinkEntity(change.entity().getClass())) {
                throw new StreamsException(LibraryErrorCode.CAPTURE_NOT_CONFIGURED, "The persistence unit of "
                        + change.entity().getClass().getName() + " runs on EclipseLink but does not name"
                        + " Object Streams' commit hook; add <property name=\"eclipselink.session-event-listener\""
                        + " value=\"io.objectstreams.capture.EclipseLinkCapture\"/> to it (docs/capture.md)");
            }
        }
    }

    // Woven EclipseLink entities implement its internal interfaces; unwoven ones cannot be told apart here.
    private static boolean isEclipseLinkEntity(Class<?> type) {
        for (Class<?> contract : type.getInterfaces()) {
            if (contract.getName().startsWith("org.eclipse.persistence.")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void afterCompletion(int status) {
        if (status == Status.STATUS_COMMITTED && recorded < seen.size()) {
            // Only reachable if a provider broke the order above; too late to fail, so it is said loudly (G1).
            LOG.severe(() -> "A committed transaction left " + (seen.size() - recorded) + " recorded changes without"
                    + " outbox rows (capture_failed), the first of " + seen.get(recorded).entity().getClass().getName()
                    + "; its subscribers may have missed it");
        }
        if (status == Status.STATUS_COMMITTED && written > 0) {
            notifier.wakeup();
        }
    }

    /** The subject instance a snapshot records the part attached to, or null. */
    private static Object subjectIn(EntityType type, Object[] snapshot) {
        return snapshot[type.indexOf(type.subject.orElseThrow())] instanceof Attribute.Identity identity
                ? identity.target() : null;
    }
}
