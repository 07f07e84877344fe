package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.testing.DeliveryFaults;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Decides each step of one batch for each subscription the {@link Dispatch} found for it, and hands it to the
 * subscription's session (G8, G9, G17); notes the subscriptions whose scope could not be decided, which the fan-out
 * tells to resync at the batch's end (G10).
 */
final class StepDelivery {

    private final DispatchIndex index;
    private final Dispatch dispatch;
    private final ScopeAttributes deciding;
    private final boolean leakArmed;
    private final EventPayloads payloads = new EventPayloads();
    private final Map<StreamSession, Set<Subscription>> undecided = new LinkedHashMap<>();

    /** @param leakArmed whether a test's deliberate leak was armed when the batch's subscriptions were found */
    StepDelivery(DispatchIndex index, Dispatch dispatch, ScopeAttributes deciding, boolean leakArmed) {
        this.index = index;
        this.dispatch = dispatch;
        this.deciding = deciding;
        this.leakArmed = leakArmed;
    }

    /** Decides one step for one subscription and hands it to its session, or notes it undecided. */
    void deliver(BatchSteps.Step step, Subscription subscription) {
        StreamEvent event = step.event();
        StreamSession session = index.owner(subscription);
        if (session == null || !subscription.concerns(event)) {
            return; // ended since it was found, or an object subscription of another object
        }
        Set<String> matches = dispatch.matches(subscription);
        if (matches == null) {
            // Its scope could not be decided: every subscription of that scope is told, once, at the batch's end.
            undecided.computeIfAbsent(session, k -> new LinkedHashSet<>()).add(subscription);
            return;
        }
        // Decided against the state after the batch as far as it tells of this row (G17, BatchSteps); exactly,
        // whatever the batch's boundaries, for a scope that sees every object while it exists.
        boolean everyObject = subscription.scope().seesEveryObject();
        if (!everyObject && skipsToTheDelete(subscription, step)) {
            return;
        }
        boolean matchesNow = everyObject ? step.exists() : step.matches(matches.contains(event.pk()));
        Set<String> decidedBy = deciding.of(subscription.scope());
        // Under a policy whose deciding attributes cannot be told, a holder still matching is told the row: skipping
        // it would drop every row a later write follows, which a lagging fan-out sees.
        boolean told = everyObject || step.toldBy(decidedBy) || decidedBy == null && subscription.isMember(event.pk());
        boolean leaked = !matchesNow && leaks(subscription, step);
        session.deliver(subscription, event, matchesNow || leaked, told || leaked, payloads);
    }

    /** The subscriptions left undecided, by session, in the order they were met. */
    Map<StreamSession, Set<Subscription>> undecided() {
        return undecided;
    }

    /**
     * A test's deliberate defect ({@link DeliveryFaults}): an unreadable object's event for a model subscription. Not
     * a row of an object deleted since, which matches nothing whoever could read it then: that would be no leak.
     */
    private boolean leaks(Subscription subscription, BatchSteps.Step step) {
        StreamEvent event = step.event();
        return leakArmed && subscription.request().kind() == SubscriptionKind.MODEL
                && !step.gone() && event.op() != EventOperation.DELETED
                && !subscription.isMember(event.pk())
                && DeliveryFaults.fire(DeliveryFaults.Fault.LEAK_EVENT, subscription.id());
    }

    /**
     * A test's deliberate defect ({@link DeliveryFaults}): a held object's row before its delete in the batch is
     * skipped.
     */
    private static boolean skipsToTheDelete(Subscription subscription, BatchSteps.Step step) {
        return DeliveryFaults.armed(DeliveryFaults.Fault.DELETE_AFTER_HIDE)
                && step.gone() && step.event().op() != EventOperation.DELETED
                && subscription.isMember(step.event().pk())
                && DeliveryFaults.fire(DeliveryFaults.Fault.DELETE_AFTER_HIDE, subscription.id());
    }
}
