package io.objectstreams.web.subscription;

import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;
import jakarta.json.JsonObject;

/**
 * A message the server queues outside the event stream (a reply to the client, or a subscription-level message such
 * as {@code resync_required}), built by {@link Messages}, with what it is beside its JSON.
 *
 * @param type         the message's {@code type}
 * @param cursor       its {@code cursor}, or -1 when it has none
 * @param resyncReason a {@code resync_required}'s reason, else {@code null}
 * @param body         the message
 */
public record Reply(MessageType type, long cursor, ResyncReason resyncReason, JsonObject body) {

    Reply(MessageType type, JsonObject body) {
        this(type, -1, null, body);
    }
}
