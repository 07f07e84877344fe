package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

/**
 * The server's protocol messages (the reference protocol's {@code type}s). Replies are built as JSON-P objects;
 * events, the bulk of the traffic, are rendered as text once per batch and variant (G15): an event message is
 * the head {@code {"type":"event","subscription_id":"..."} } of its subscription followed by a payload that every
 * subscriber receiving the same {@code list_action} and {@code own} shares.
 */
public final class Messages {

    /** Looked up once: {@code Json.createX} looks the provider up again on every call, which dominated fan-out. */
    public static final JsonProvider JSON = JsonProvider.provider();

    private Messages() {
    }

    static Reply subscribed(String subscriptionId, SubscribeRequest request, long cursor) {
        JsonObjectBuilder message = JSON.createObjectBuilder()
                .add("type", MessageType.SUBSCRIBED.wireName())
                .add("subscription_id", subscriptionId)
                .add("kind", request.kind().wireName())
                .add("model", request.model());
        if (request.pk() != null) {
            message.add("pk", request.pk());
        }
        echo(message, "filter", request.filter());
        message.add("cursor", cursor);
        echo(message, "ordering", request.ordering());
        echo(message, "shape", request.shape());
        // Its position in the stream (SSE's id:) is the cursor the client is brought up to: its own when it resumes,
        // since the replay or resync follows; a stream that ends here resumes from there and misses nothing.
        long position = request.cursor() != null ? Math.min(request.cursor(), cursor) : cursor;
        return new Reply(MessageType.SUBSCRIBED, position, null, message.build());
    }

    static Reply unsubscribed(String subscriptionId) {
        return new Reply(MessageType.UNSUBSCRIBED, JSON.createObjectBuilder()
                .add("type", MessageType.UNSUBSCRIBED.wireName()).add("subscription_id", subscriptionId).build());
    }

    /**
     * The part of an event message after its subscription id, starting with the comma that follows it and ending
     * with the closing brace: the same bytes for every subscriber that gets this {@code list_action} and
     * {@code own}.
     */
    static String eventPayload(StreamEvent event, ListAction listAction, boolean own) {
        StringBuilder text = new StringBuilder(256);
        text.append(",\"cursor\":").append(event.cursor()).append(",\"subject\":{\"model\":");
        quote(text, event.model());
        text.append(",\"pk\":");
        quote(text, event.pk());
        text.append("},\"facet\":");
        quote(text, event.facet());
        text.append(",\"op\":\"").append(event.op().wireName()).append("\",\"list_action\":\"")
                .append(listAction.wireName()).append("\",\"changed_fields\":[");
        for (int i = 0; i < event.changedFields().size(); i++) {
            if (i > 0) {
                text.append(',');
            }
            quote(text, event.changedFields().get(i));
        }
        text.append("],\"fetch\":").append(listAction.fetch())
                .append(",\"transaction_id\":\"").append(event.transactionId()).append("\",\"own\":").append(own)
                .append('}');
        return text.toString();
    }

    /**
     * The payload answering a pk the client named in {@code members} that the viewer cannot read now: {@code removed}
     * at the client's own cursor, and nothing else (no op, fields, facet or transaction), so that a hidden object, a
     * deleted one and a pk that never existed read alike (G8).
     */
    static String unreadableMemberPayload(String model, String pk, long cursor) {
        StringBuilder text = new StringBuilder(96);
        text.append(",\"cursor\":").append(cursor).append(",\"subject\":{\"model\":");
        quote(text, model);
        text.append(",\"pk\":");
        quote(text, pk);
        text.append("},\"list_action\":\"").append(ListAction.REMOVED.wireName()).append("\",\"fetch\":")
                .append(ListAction.REMOVED.fetch()).append('}');
        return text.toString();
    }

    /** The opening of an event message for one subscription, to be followed by an {@link #eventPayload}. */
    static String eventHead(String subscriptionId) {
        StringBuilder text = new StringBuilder(48).append("{\"type\":\"event\",\"subscription_id\":");
        quote(text, subscriptionId);
        return text.toString();
    }

    static Reply resyncRequired(String subscriptionId, long cursor, ResyncReason reason) {
        return new Reply(MessageType.RESYNC_REQUIRED, cursor, reason, JSON.createObjectBuilder()
                .add("type", MessageType.RESYNC_REQUIRED.wireName())
                .add("subscription_id", subscriptionId)
                .add("cursor", cursor)
                .add("reason", reason.wireName())
                .build());
    }

    public static Reply error(ProtocolError error) {
        JsonObjectBuilder message = JSON.createObjectBuilder()
                .add("type", MessageType.ERROR.wireName())
                .add("code", error.code().wireName())
                .add("message", error.getMessage());
        if (error.subscriptionId() != null) {
            message.add("subscription_id", error.subscriptionId());
        }
        if (error.details() != null) {
            message.add("details", error.details());
        }
        return new Reply(MessageType.ERROR, message.build());
    }

    private static void echo(JsonObjectBuilder message, String field, JsonValue value) {
        if (value != null) {
            message.add(field, value);
        }
    }

    /** Appends {@code value} as a JSON string (RFC 8259 escaping). */
    static void quote(StringBuilder text, String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                default -> {
                    if (c < 0x20) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }
}
