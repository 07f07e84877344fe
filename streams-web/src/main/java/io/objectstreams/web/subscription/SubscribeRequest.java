package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.protocol.SubscriptionKind;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A validated {@code subscribe} message. Every field the protocol defines is checked for presence and type;
 * a field that is not part of the protocol is refused rather than ignored.
 */
public record SubscribeRequest(SubscriptionKind kind, String model, String pk, JsonObject filter, String subscriptionId,
                        Long cursor, JsonValue ordering, JsonValue shape, Set<String> members) {

    /** The longest {@code subscription_id}: it heads every event of its subscription. */
    public static final int MAX_ID_CHARS = 200;

    private static final Set<String> FIELDS = Set.of("op", "kind", "model", "pk", "filter", "filters", "cursor",
            "subscription_id", "search", "ordering", "shape", "members");

    /** A request without {@code members}. */
    public SubscribeRequest(SubscriptionKind kind, String model, String pk, JsonObject filter, String subscriptionId,
                            Long cursor, JsonValue ordering, JsonValue shape) {
        this(kind, model, pk, filter, subscriptionId, cursor, ordering, shape, null);
    }

    public static SubscribeRequest parse(JsonObject message) throws ProtocolError {
        requireKnownFields(message);
        SubscriptionKind kind = message.containsKey("kind")
                ? SubscriptionKind.fromWireName(text(message, "kind")).orElseThrow(() -> new ProtocolError(
                        ErrorCode.INVALID_REQUEST, "kind must be object, filter or model"))
                : SubscriptionKind.OBJECT;
        String model = required(message, "model");
        String pk = null;
        JsonObject filter = null;
        if (message.containsKey("filter") && message.containsKey("filters")) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "Send filter or its alias filters, not both");
        }
        String filterField = message.containsKey("filters") ? "filters" : "filter";
        switch (kind) {
            case OBJECT -> {
                refuse(message, filterField, "an object subscription; use kind filter");
                pk = pk(message);
            }
            case FILTER -> {
                refuse(message, "pk", "a filter subscription");
                JsonValue value = message.getOrDefault(filterField, JsonValue.EMPTY_JSON_OBJECT);
                if (!(value instanceof JsonObject object)) {
                    throw new ProtocolError(ErrorCode.INVALID_REQUEST, filterField + " must be a JSON object");
                }
                filter = object;
            }
            default -> {
                refuse(message, "pk", "a model subscription");
                refuse(message, filterField, "a model subscription; use kind filter");
            }
        }
        String id = message.containsKey("subscription_id") ? required(message, "subscription_id") : null;
        if (id != null) {
            checkId(id, ErrorCode.INVALID_REQUEST);
        }
        Long cursor = cursor(message);
        return new SubscribeRequest(kind, model, pk, filter, id, cursor, message.get("ordering"), message.get("shape"),
                members(message, kind, cursor));
    }

    /** Refuses a field the protocol does not define, and a search, which it defines but this server does not offer. */
    private static void requireKnownFields(JsonObject message) throws ProtocolError {
        for (String field : message.keySet()) {
            if (!FIELDS.contains(field)) {
                throw new ProtocolError(ErrorCode.INVALID_REQUEST, "Unknown field " + ProtocolError.quoted(field)
                        + " in subscribe");
            }
        }
        if (message.containsKey("search")) {
            throw new ProtocolError(ErrorCode.UNSUPPORTED_SEARCH, "Search is not supported; use a filter.");
        }
    }

    /** The cursor to resume from; {@code null} when absent or JSON {@code null}. */
    private static Long cursor(JsonObject message) throws ProtocolError {
        if (!message.containsKey("cursor") || message.get("cursor").getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (!(message.get("cursor") instanceof JsonNumber number) || !number.isIntegral()
                || number.bigDecimalValue().signum() < 0) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "cursor must be a non-negative integer");
        }
        BigDecimal value = number.bigDecimalValue();
        if (value.precision() - value.scale() > 19 || value.compareTo(MAX_CURSOR) > 0) {
            throw new ProtocolError(ErrorCode.INVALID_CURSOR, "Cursor " + abbreviated(number.toString())
                    + " is out of range: cursors are at most " + Long.MAX_VALUE);
        }
        return value.longValueExact();
    }

    /** The pks a resuming set subscription holds at its cursor; {@code null} when it sends none. */
    private static Set<String> members(JsonObject message, SubscriptionKind kind, Long cursor) throws ProtocolError {
        if (!message.containsKey("members")) {
            return null;
        }
        if (kind == SubscriptionKind.OBJECT) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "members does not apply to an object subscription");
        }
        if (cursor == null) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "members is read only with a cursor: they are"
                    + " the pks the client holds at that cursor");
        }
        if (!(message.get("members") instanceof JsonArray array)) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "members must be an array of pks");
        }
        Set<String> members = new LinkedHashSet<>();
        for (JsonValue member : array) {
            members.add(memberPk(member));
        }
        return members;
    }

    private static String memberPk(JsonValue value) throws ProtocolError {
        if (value instanceof JsonString text && !text.getString().isBlank() && text.getString().length() <= 1000) {
            return text.getString();
        }
        if (value instanceof JsonNumber number && number.isIntegral() && number.toString().length() <= 1000) {
            return number.bigIntegerValue().toString();
        }
        throw new ProtocolError(ErrorCode.INVALID_REQUEST, "members must be pks: strings or integers");
    }

    private static final BigDecimal MAX_CURSOR = BigDecimal.valueOf(Long.MAX_VALUE);

    private static String abbreviated(String text) {
        return text.length() <= 30 ? text : text.substring(0, 27) + "...";
    }

    /** Refuses, with {@code code}, a {@code subscription_id} longer than {@value #MAX_ID_CHARS} characters. */
    static void checkId(String id, ErrorCode code) throws ProtocolError {
        if (id.length() > MAX_ID_CHARS) {
            throw new ProtocolError(code, "subscription_id is longer than " + MAX_ID_CHARS + " characters");
        }
    }

    /** This request with its pk and members spelled as {@code canonical} spells them (events' spelling). */
    SubscribeRequest canonical(UnaryOperator<String> canonical) {
        Set<String> spelled = null;
        if (members != null) {
            spelled = new LinkedHashSet<>();
            for (String member : members) {
                spelled.add(canonical.apply(member));
            }
        }
        return new SubscribeRequest(kind, model, pk == null ? null : canonical.apply(pk), filter, subscriptionId,
                cursor, ordering, shape, spelled);
    }

    /** A filter or model subscription resumed from a cursor without the pks the client holds. */
    boolean resumesWithoutMembers() {
        return !isObject() && cursor != null && members == null;
    }

    boolean isObject() {
        return kind == SubscriptionKind.OBJECT;
    }

    /** A field that has no meaning for this kind is an error, never silently ignored (G12). */
    private static void refuse(JsonObject message, String field, String what) throws ProtocolError {
        if (message.containsKey(field)) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, field + " does not apply to " + what);
        }
    }

    private static String pk(JsonObject message) throws ProtocolError {
        JsonValue value = message.get("pk");
        if (value instanceof JsonString text && !text.getString().isBlank()) {
            return text.getString();
        }
        if (value instanceof JsonNumber number && number.isIntegral()) {
            return number.bigIntegerValue().toString();
        }
        throw new ProtocolError(ErrorCode.INVALID_REQUEST, "pk is required for an object subscription"
                + " (a string or an integer)");
    }

    public static String required(JsonObject message, String field) throws ProtocolError {
        if (!message.containsKey(field)) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, field + " is required");
        }
        String value = text(message, field);
        if (value.isBlank()) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, field + " must not be blank");
        }
        return value;
    }

    static String text(JsonObject message, String field) throws ProtocolError {
        if (!(message.get(field) instanceof JsonString text)) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, field + " must be a string");
        }
        return text.getString();
    }
}
