package io.objectstreams.web.subscription;

import io.objectstreams.web.testing.DeliveryFaults;
import io.objectstreams.web.testing.DeliveryFaults.Fault;

/**
 * A test's deliberate defects in one connection's events ({@link DeliveryFaults}): a dropped event, a duplicated
 * one, or one held back until its subscription's next. Nothing happens unless a fault is armed. Guarded by its
 * queue's lock.
 */
final class QueueFaults {

    private QueueEntry heldBack;

    /** Whether {@code entry} is not to be queued now: dropped, or held back. */
    boolean withholds(QueueEntry entry) {
        if (DeliveryFaults.fire(Fault.DROP_EVENT, entry.subscription.id())) {
            return true;
        }
        if (heldBack == null && DeliveryFaults.fire(Fault.REORDER_EVENTS, entry.subscription.id())) {
            heldBack = entry;
            return true;
        }
        return false;
    }

    /** What to queue right after {@code entry}: the event held back for its subscription, a duplicate, or nothing. */
    QueueEntry after(QueueEntry entry) {
        if (heldBack != null && heldBack.subscription == entry.subscription) {
            QueueEntry held = heldBack;
            heldBack = null;
            return held;
        }
        if (DeliveryFaults.fire(Fault.DUPLICATE_EVENT, entry.subscription.id())) {
            return new QueueEntry(entry.kind, entry.subscription, null, entry.head, entry.payload, entry.cursor);
        }
        return null;
    }
}
