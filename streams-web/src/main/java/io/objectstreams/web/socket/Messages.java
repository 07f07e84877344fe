package io.objectstreams.web.socket;

import io.objectstreams.StreamEvent;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;

/** The server's protocol messages (the reference protocol's {@code type}s), built as JSON-P objects. */
final class Messages {

    /** Looked up once: {@code Json.createX} looks the provider up again on every call, which dominated fan-out. */
    static final JsonProvider JSON = JsonProvider.provider();

    private Messages() {
    }

    static JsonObject subscribed(Subscription subscription, long cursor) {
        SubscribeRequest request = subscription.request();
        JsonObjectBuilder message = JSON.createObjectBuilder()
                .add("type", "subscribed")
                .add("subscription_id", subscription.id())
                .add("kind", request.kind())
                .add("model", request.model());
        if (request.pk() != null) {
            message.add("pk", request.pk());
        }
        echo(message, "filter", request.filter());
        message.add("cursor", cursor);
        echo(message, "ordering", request.ordering());
        echo(message, "shape", request.shape());
        return message.build();
    }

    static JsonObject unsubscribed(String subscriptionId) {
        return JSON.createObjectBuilder().add("type", "unsubscribed").add("subscription_id", subscriptionId).build();
    }

    static JsonObject event(String subscriptionId, StreamEvent event, String listAction, boolean own) {
        return JSON.createObjectBuilder()
                .add("type", "event")
                .add("subscription_id", subscriptionId)
                .add("cursor", event.cursor())
                .add("subject", JSON.createObjectBuilder().add("model", event.model()).add("pk", event.pk()))
                .add("facet", event.facet())
                .add("op", event.op().wireName())
                .add("list_action", listAction)
                .add("changed_fields", JSON.createArrayBuilder(event.changedFields()))
                .add("fetch", !listAction.equals("deleted") && !listAction.equals("removed"))
                .add("transaction_id", Long.toString(event.transactionId()))
                .add("own", own)
                .build();
    }

    static JsonObject resyncRequired(String subscriptionId, long cursor, String reason) {
        return JSON.createObjectBuilder()
                .add("type", "resync_required")
                .add("subscription_id", subscriptionId)
                .add("cursor", cursor)
                .add("reason", reason)
                .build();
    }

    static JsonObject error(ProtocolError error) {
        JsonObjectBuilder message = JSON.createObjectBuilder()
                .add("type", "error")
                .add("code", error.code())
                .add("message", error.getMessage());
        if (error.details() != null) {
            message.add("details", error.details());
        }
        return message.build();
    }

    private static void echo(JsonObjectBuilder message, String field, JsonValue value) {
        if (value != null) {
            message.add(field, value);
        }
    }
}
