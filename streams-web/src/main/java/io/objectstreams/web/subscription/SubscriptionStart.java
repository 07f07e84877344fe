package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ResyncReason;
import java.util.List;
import java.util.Set;

/**
 * How a new subscription starts (G10): the members it holds, the cursor from which it is live, what it is replayed
 * first, and whether it must resync instead of being replayed.
 *
 * @param members      the subjects the client holds at {@code replayFrom}, as far as the server can tell
 * @param replayFrom   the cursor after which events reach the subscription
 * @param replay       the replayed events, in the order they are applied
 * @param resyncReason why the subscription resyncs at once, or {@code null}
 * @param unreadable   pks the client named in {@code members} that the viewer cannot read now, whether they exist or
 *                     not: each is answered with one {@code removed} that says nothing else (G8), and is not a member
 */
record SubscriptionStart(Set<String> members, long replayFrom, List<Delivery> replay, ResyncReason resyncReason,
                         List<String> unreadable) {

    SubscriptionStart(Set<String> members, long replayFrom, List<Delivery> replay, ResyncReason resyncReason) {
        this(members, replayFrom, replay, resyncReason, List.of());
    }

    /** Live from {@code cursor}, holding {@code members}, with nothing to replay. */
    static SubscriptionStart live(Set<String> members, long cursor) {
        return new SubscriptionStart(members, cursor, List.of(), null);
    }

    /** Told to resync through {@code cursor} at once, and live from there. */
    static SubscriptionStart resync(Set<String> members, long cursor, ResyncReason reason) {
        return new SubscriptionStart(members, cursor, List.of(), reason);
    }
}
