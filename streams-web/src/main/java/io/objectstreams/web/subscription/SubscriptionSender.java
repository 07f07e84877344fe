package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.protocol.ResyncReason;

/**
 * Turns what one of a session's subscriptions is handed into what its client is sent: an event's effect on the
 * subscription ({@code list_action}, or nothing), or a resync (G9, G10). It holds no state of its own; the session
 * calls it under its lock.
 */
final class SubscriptionSender {

    private final StreamSession session;
    private final Viewer viewer;
    private final OutboundQueue outbound;
    private final FanOutLedger ledger;
    private final DeliveryCounts counts;

    SubscriptionSender(StreamSession session, Viewer viewer, OutboundQueue outbound, FanOutLedger ledger,
                       DeliveryCounts counts) {
        this.session = session;
        this.viewer = viewer;
        this.outbound = outbound;
        this.ledger = ledger;
        this.counts = counts;
    }

    /** Sends the event if it has an effect on the subscription; resyncs one whose members are stale or unaccounted. */
    void apply(Subscription subscription, StreamEvent event, boolean matches, boolean latest,
               EventPayloads payloads) {
        if (subscription.staleReason() != null) {
            subscription.skipThrough(event.cursor());
            return;
        }
        if (subscription.unaccounted(event, matches)) {
            resyncStale(subscription, event.cursor(), ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            return;
        }
        var action = subscription.effect(event, matches, latest);
        if (action != null) {
            boolean own = viewer.name() != null && viewer.name().equals(event.actor());
            outbound.event(subscription, event, payloads.of(event, action, own));
        }
    }

    /** Tells the subscription to resync through {@code cursor}; nothing of it through that cursor is sent after. */
    void resyncNow(Subscription subscription, long cursor, ResyncReason reason) {
        counts.resync(reason);
        subscription.skipThrough(cursor);
        outbound.control(Messages.resyncRequired(subscription.id(), cursor, reason));
    }

    /** Resyncs now, and once more at the next batch, whose members are read again. */
    void resyncStale(Subscription subscription, long cursor, ResyncReason reason) {
        resyncNow(subscription, cursor, reason);
        subscription.markStale(reason);
        ledger.rereadLater(session, subscription);
    }
}
