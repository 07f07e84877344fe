package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ResyncReason;
import java.util.ArrayList;
import java.util.List;

/**
 * The live events a subscription is handed while it starts (its members and replay are being read), applied once it
 * has started (G10). Bounded like the outbound queue: past the connection's byte budget the events are dropped and
 * the subscription will resync ({@code slow_consumer}) instead. Guarded by its session's lock.
 */
final class StartingSubscription {

    private final long maxBytes;
    private final List<Delivery> buffered = new ArrayList<>();
    private long resyncCursor = -1;
    private ResyncReason resyncReason;

    StartingSubscription(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Keeps a live event for when the subscription has started, or gives up on keeping events. */
    void buffer(StreamEvent event, boolean matches, boolean latest) {
        if (resyncReason != null) {
            resyncCursor = Math.max(resyncCursor, event.cursor());
        } else if ((buffered.size() + 1L) * OutboundQueue.ENTRY_BYTES <= maxBytes) {
            buffered.add(new Delivery(event, matches, latest));
        } else {
            buffered.clear();
            resyncCursor = event.cursor();
            resyncReason = ResyncReason.SLOW_CONSUMER;
        }
    }

    /** The subscription must resync through {@code cursor} once started: what was buffered no longer counts. */
    void resync(long cursor, ResyncReason reason) {
        buffered.clear();
        resyncCursor = Math.max(resyncCursor, cursor);
        resyncReason = reason;
    }

    List<Delivery> buffered() {
        return buffered;
    }

    /** Why the subscription resyncs once started, or {@code null}. */
    ResyncReason resyncReason() {
        return resyncReason;
    }

    long resyncCursor() {
        return resyncCursor;
    }
}
