package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.ObjectRef;
import io.objectstreams.StreamEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's events, each with what the state after the batch can tell about it: membership is read once, after the
 * whole batch, so it is each subject's state as of its last transaction in the batch, not as of its earlier rows (G17).
 */
final class BatchSteps {

    /**
     * One event to fan out.
     *
     * @param latest whether the state after the batch is the state after this event: no later transaction of the batch
     *               wrote its subject. An earlier row's subject may have matched then or not; the server cannot tell
     * @param gone   whether its subject is deleted at or after it in the batch: the object it concerns no longer
     *               exists, whatever a later create of the same pk brought (natural keys)
     */
    record Step(StreamEvent event, boolean latest, boolean gone) {

        /** Whether the subject matches at this event as far as the state now tells, given whether its pk matches now. */
        boolean matches(boolean pkMatchesNow) {
            return pkMatchesNow && !gone;
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
        Map<ObjectRef, Long> lastTransaction = new HashMap<>();
        // Per subject, the transaction of the nearest delete after the row being looked at (walking backwards).
        Map<ObjectRef, Long> nextDelete = new HashMap<>();
        List<Step> steps = new ArrayList<>(batch.size());
        for (int i = batch.size() - 1; i >= 0; i--) {
            StreamEvent event = batch.get(i);
            ObjectRef subject = event.subject();
            long last = lastTransaction.computeIfAbsent(subject, s -> event.transactionId());
            Long deleteTransaction = nextDelete.get(subject);
            if (event.op() == EventOperation.DELETED) {
                nextDelete.put(subject, event.transactionId());
            } else if (deleteTransaction != null && deleteTransaction == event.transactionId()) {
                continue;
            }
            steps.add(new Step(event, event.transactionId() == last,
                    event.op() == EventOperation.DELETED || deleteTransaction != null));
        }
        Collections.reverse(steps);
        return steps;
    }
}
