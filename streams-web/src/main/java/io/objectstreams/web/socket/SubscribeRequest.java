package io.objectstreams.web.socket;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Set;

/**
 * A validated {@code subscribe} message. Every field the protocol defines is checked for presence and type;
 * a field that is not part of the protocol is refused rather than ignored.
 */
record SubscribeRequest(String kind, String model, String pk, String subscriptionId, Long cursor,
                        JsonValue ordering, JsonValue shape) {

    private static final Set<String> FIELDS = Set.of("op", "kind", "model", "pk", "filter", "filters", "cursor",
            "subscription_id", "search", "ordering", "shape");

    static SubscribeRequest parse(JsonObject message) throws ProtocolError {
        for (String field : message.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new ProtocolError(ProtocolError.INVALID_REQUEST, "Unknown field '" + field + "' in subscribe");
            }
        }
        if (message.containsKey("search")) {
            throw new ProtocolError(ProtocolError.UNSUPPORTED_SEARCH, "Search is not supported; use a filter.");
        }
        String kind = message.containsKey("kind") ? text(message, "kind") : "object";
        if (!Set.of("object", "filter", "model").contains(kind)) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "kind must be object, filter or model");
        }
        if (!kind.equals("object")) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST,
                    "This server accepts object subscriptions only so far; " + kind + " subscriptions are not available yet.");
        }
        String model = required(message, "model");
        String pk = pk(message);
        String id = message.containsKey("subscription_id") ? required(message, "subscription_id") : null;
        Long cursor = null;
        if (message.containsKey("cursor") && message.get("cursor").getValueType() != JsonValue.ValueType.NULL) {
            if (!(message.get("cursor") instanceof JsonNumber number) || !number.isIntegral()
                    || number.longValue() < 0) {
                throw new ProtocolError(ProtocolError.INVALID_REQUEST, "cursor must be a non-negative integer");
            }
            cursor = number.longValueExact();
        }
        return new SubscribeRequest(kind, model, pk, id, cursor, message.get("ordering"), message.get("shape"));
    }

    private static String pk(JsonObject message) throws ProtocolError {
        JsonValue value = message.get("pk");
        if (value instanceof JsonString text && !text.getString().isBlank()) {
            return text.getString();
        }
        if (value instanceof JsonNumber number && number.isIntegral()) {
            return number.bigIntegerValue().toString();
        }
        throw new ProtocolError(ProtocolError.INVALID_REQUEST, "pk is required for an object subscription"
                + " (a string or an integer)");
    }

    static String required(JsonObject message, String field) throws ProtocolError {
        if (!message.containsKey(field)) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, field + " is required");
        }
        String value = text(message, field);
        if (value.isBlank()) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, field + " must not be blank");
        }
        return value;
    }

    static String text(JsonObject message, String field) throws ProtocolError {
        if (!(message.get(field) instanceof JsonString text)) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, field + " must be a string");
        }
        return text.getString();
    }
}
