package io.objectstreams.web.subscription;

import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;

/**
 * One message in an {@link OutboundQueue}: a reply, an event (its subscription's shared head and the batch's shared
 * payload) or a {@code slow_consumer} marker, with the bytes it is charged.
 */
final class QueueEntry {

    enum Kind { REPLY, EVENT, SLOW_CONSUMER }

    final Kind kind;
    /** An event's or a marker's subscription; {@code null} for a reply. */
    final Subscription subscription;
    /** A reply's type and resync reason; {@code null} for an event or a marker. */
    final Reply reply;
    /** The whole reply; or an event's shared head; {@code null} for a slow-consumer marker. */
    final String head;
    /** An event's shared payload; {@code null} otherwise. */
    final String payload;
    final int bytes;
    /** The message's cursor; -1 for a reply that has none. */
    long cursor;
    /** An event's outbox row's {@code created_at}, for its latency; -1 when not measured. */
    long recordedAtMillis = -1;

    QueueEntry(Kind kind, Subscription subscription, Reply reply, String head, String payload, long cursor) {
        this.kind = kind;
        this.subscription = subscription;
        this.reply = reply;
        this.head = head;
        this.payload = payload;
        this.cursor = cursor;
        this.bytes = OutboundQueue.ENTRY_BYTES + (head == null ? 0 : head.length())
                + (payload == null ? 0 : payload.length());
    }

    OutboundMessage message() {
        return switch (kind) {
            case REPLY -> new OutboundMessage(reply.type(), cursor, reply.resyncReason(), head);
            case EVENT -> new OutboundMessage(MessageType.EVENT, cursor, null, head.concat(payload));
            case SLOW_CONSUMER -> new OutboundMessage(MessageType.RESYNC_REQUIRED, cursor, ResyncReason.SLOW_CONSUMER,
                    Messages.resyncRequired(subscription.id(), cursor, ResyncReason.SLOW_CONSUMER).body().toString());
        };
    }
}
