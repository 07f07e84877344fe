package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.ObjectRef;
import io.objectstreams.StreamEvent;
import io.objectstreams.Streamed;
import io.objectstreams.web.visibility.DecidingAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A batch's events, each with what the state after the batch can tell about it: membership is read once, after the
 * whole batch, so it is each subject's state as of its last transaction in the batch, not as of its earlier rows (G17).
 * What later transactions of the batch changed says how far it still tells of an earlier row: a row after which
 * nothing a scope is decided by changed matched then exactly as it matches now.
 */
final class BatchSteps {

    /** In {@link Step#laterChanges}: a later row whose changes cannot be named (a create of a pk deleted before). */
    static final String ANY = "*";

    /**
     * One event to fan out.
     *
     * @param laterChanges the attributes later transactions of the batch changed on its subject ({@link #ANY} for one
     *                     that cannot be told), or {@code null} when none wrote it: the state after the batch is then
     *                     the state after this event
     * @param gone         whether its subject is deleted at or after it in the batch: the object it concerns no longer
     *                     exists, whatever a later create of the same pk brought (natural keys)
     */
    record Step(StreamEvent event, Set<String> laterChanges, boolean gone) {

        /**
         * This step with {@code changes} made to its subject after the batch; {@code deleted}: the subject was deleted
         * after the batch, and matches nothing now whatever its pk names now.
         */
        Step changedLater(Set<String> changes, boolean deleted) {
            Set<String> all = new HashSet<>(changes);
            if (laterChanges != null) {
                all.addAll(laterChanges);
            }
            return new Step(event, Set.copyOf(all), gone || deleted);
        }

        /** Whether no later transaction of the batch wrote the subject. */
        boolean latest() {
            return laterChanges == null;
        }

        /**
         * Whether the subject matches at this event as far as the state now tells, given whether its pk matches now.
         */
        boolean matches(boolean pkMatchesNow) {
            return pkMatchesNow && !gone;
        }

        /**
         * Whether the state now tells whether the subject matched at this event, for a scope decided by the attributes
         * {@code deciding} ({@code null}: cannot be told which): none of them changed since, or nothing did.
         */
        boolean toldBy(Set<String> deciding) {
            return laterChanges == null || !gone && deciding != null && !laterChanges.contains(ANY)
                    && Collections.disjoint(laterChanges, deciding);
        }

        /**
         * Whether the subject matches at this event for a subscription that holds every object of its model while it
         * exists ({@link io.objectstreams.web.visibility.Scope#seesEveryObject}): exactly when the event leaves it in
         * existence, whatever later rows of the batch, or later transactions, did to it.
         */
        boolean exists() {
            return event.op() != EventOperation.DELETED;
        }
    }

    private BatchSteps() {
    }

    /**
     * The steps of {@code batch}, in cursor order, without the rows a delete of their subject in their own
     * transaction supersedes: nobody could see the state between them, and the delete says it all (as the capture's
     * coalescing does, where a trigger's statements could not). Rows of earlier transactions are kept: a subscriber
     * may have lost sight of the object at one of them, and must then not be told of the delete (G8).
     */
    static List<Step> of(List<StreamEvent> batch) {
        // Walking backwards, per subject: the transaction whose rows are being walked, what it changed, and what the
        // transactions after it changed (a transaction's rows are consecutive: cursors follow commits).
        Map<ObjectRef, Long> walking = new HashMap<>();
        Map<ObjectRef, Set<String>> walkingChanges = new HashMap<>();
        Map<ObjectRef, Set<String>> changedAfter = new HashMap<>();
        // Per subject, the transaction of the nearest delete after the row being looked at.
        Map<ObjectRef, Long> nextDelete = new HashMap<>();
        List<Step> steps = new ArrayList<>(batch.size());
        for (int i = batch.size() - 1; i >= 0; i--) {
            StreamEvent event = batch.get(i);
            ObjectRef subject = event.subject();
            Long transaction = walking.get(subject);
            if (transaction == null || transaction != event.transactionId()) {
                if (transaction != null) {
                    changedAfter.computeIfAbsent(subject, s -> new HashSet<>()).addAll(walkingChanges.get(subject));
                }
                walking.put(subject, event.transactionId());
                walkingChanges.put(subject, new HashSet<>());
            }
            walkingChanges.get(subject).addAll(changes(event));
            Long deleteTransaction = nextDelete.get(subject);
            if (event.op() == EventOperation.DELETED) {
                nextDelete.put(subject, event.transactionId());
            } else if (deleteTransaction != null && deleteTransaction == event.transactionId()) {
                continue;
            }
            Set<String> later = changedAfter.get(subject);
            steps.add(new Step(event, later == null ? null : Set.copyOf(later),
                    event.op() == EventOperation.DELETED || deleteTransaction != null));
        }
        Collections.reverse(steps);
        return steps;
    }

    /**
     * The steps with what rows committed after the batch ({@code later}, per model, in any order) did to their
     * subjects counted as later changes: membership was read after them. A subject one of them deletes is gone, and
     * a truncation after the batch leaves nothing of the model that can be told.
     */
    static List<Step> withLaterRows(List<Step> steps, Map<String, List<StreamEvent>> later) {
        if (later.isEmpty()) {
            return steps;
        }
        Map<ObjectRef, Set<String>> changed = new HashMap<>();
        Set<ObjectRef> deleted = new HashSet<>();
        Set<String> truncated = new HashSet<>();
        later.forEach((model, rows) -> rows.forEach(row -> {
            if (row.op() == EventOperation.TRUNCATED) {
                truncated.add(model);
            } else {
                changed.computeIfAbsent(row.subject(), s -> new HashSet<>()).addAll(changes(row));
                if (row.op() == EventOperation.DELETED && Streamed.OBJECT_FACET.equals(row.facet())) {
                    deleted.add(row.subject());
                }
            }
        }));
        List<Step> marked = new ArrayList<>(steps.size());
        for (Step step : steps) {
            ObjectRef subject = step.event().subject();
            boolean cut = truncated.contains(subject.model());
            Set<String> after = cut ? Set.of(ANY) : changed.get(subject);
            marked.add(after == null ? step : step.changedLater(after, cut || deleted.contains(subject)));
        }
        return marked;
    }

    /**
     * The attributes a row says it changed: a part's row changes {@link DecidingAttributes#PARTS}; a create (of a pk
     * deleted before it), a delete, and an object's update that names no field (a delete and a create of the pk folded
     * into one transaction's row, or a publish that does not say) may have changed anything ({@link #ANY}).
     */
    static Set<String> changes(StreamEvent event) {
        if (event.op() != EventOperation.UPDATED) {
            return Set.of(ANY);
        }
        if (!Streamed.OBJECT_FACET.equals(event.facet())) {
            return Set.of(DecidingAttributes.PARTS);
        }
        if (event.changedFields().isEmpty()) {
            return Set.of(ANY);
        }
        return new HashSet<>(event.changedFields());
    }
}
