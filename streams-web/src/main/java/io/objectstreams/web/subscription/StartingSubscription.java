package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ResyncReason;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

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
    void buffer(StreamEvent event, boolean matches) {
        if (resyncReason != null) {
            resyncCursor = Math.max(resyncCursor, event.cursor());
        } else if ((buffered.size() + 1L) * OutboundQueue.ENTRY_BYTES <= maxBytes) {
            buffered.add(new Delivery(event, matches));
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

    /**
     * For a subscription resumed from a cursor without the client's {@code members} (G10): a buffered event that
     * neither matches nor concerns a member may be about an object the client held at its cursor, which left the
     * set after the subscription registered but before its members were read. Whether it did cannot be told without
     * naming an object the viewer may never have seen, so the subscription resyncs through the buffered events
     * instead ({@code cursor_replay_unavailable}). An object created in that window the client cannot hold.
     */
    void resyncIfUnaccounted(Predicate<String> isMember) {
        for (Delivery live : buffered) {
            if (!live.matches() && live.event().op() != EventOperation.CREATED && !isMember.test(live.event().pk())) {
                resync(buffered.get(buffered.size() - 1).event().cursor(), ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
                return;
            }
        }
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
