package io.objectstreams.web.sse;

import io.objectstreams.feed.SseSettings;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.subscription.Messages;
import io.objectstreams.web.subscription.SubscribeRequest;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The query of {@code GET <context root>/streams/subscribe/{model}}, validated: every parameter is known, given
 * once and in range, or the request is refused with a code naming it. Nothing is clamped or ignored (a
 * misspelled parameter must not silently widen the stream).
 *
 * @param request   the subscription, as a WebSocket {@code subscribe} would ask for it
 * @param heartbeat how often a {@code : ping} comment is written
 * @param lifetime  how long the stream stays open before it closes for the client to reconnect
 */
record SseRequest(SubscribeRequest request, Duration heartbeat, Duration lifetime) {

    private static final Set<String> PARAMETERS = Set.of("kind", "pk", "cursor", "heartbeat", "lifetime", "members");
    private static final String FILTER_PREFIX = "filter.";
    private static final BigDecimal MAX_CURSOR = BigDecimal.valueOf(Long.MAX_VALUE);

    /**
     * @param model       the path's model label
     * @param parameters  the query parameters, each with every value given
     * @param lastEventId the {@code Last-Event-ID} header, or {@code null}; it overrides {@code cursor}
     * @param defaultHeartbeat the heartbeat when the request names none ({@code streams.sse.heartbeat})
     * @param defaultLifetime  the lifetime when the request names none ({@code streams.sse.lifetime})
     */
    static SseRequest parse(String model, Map<String, String[]> parameters, String lastEventId,
                            Duration defaultHeartbeat, Duration defaultLifetime) throws ProtocolError {
        JsonObject filter = filter(parameters);
        String pk = single(parameters, "pk");
        SubscriptionKind kind = kind(single(parameters, "kind"), pk, !filter.isEmpty());
        Long urlCursor = single(parameters, "cursor") != null ? cursor(single(parameters, "cursor"), "cursor") : null;
        Long cursor = lastEventId != null ? Long.valueOf(cursor(lastEventId.trim(), "Last-Event-ID")) : urlCursor;
        // A parameter has the bounds of the setting that gives its default.
        Duration heartbeat = duration(parameters, "heartbeat", defaultHeartbeat, SseSettings.HEARTBEAT.min(),
                SseSettings.HEARTBEAT.max());
        Duration lifetime = duration(parameters, "lifetime", defaultLifetime, SseSettings.LIFETIME.min(),
                SseSettings.LIFETIME.max());
        Set<String> members = members(parameters.get("members"), kind);
        // The members are what the client held at the URL's cursor. An EventSource that reconnects by itself sends
        // the URL it was opened with and a newer Last-Event-ID: its members then describe another cursor, and are
        // not used (the replay classifies without them, resyncing where it cannot tell; see docs/protocol.md).
        boolean membersApply = cursor != null && cursor.equals(urlCursor);
        SubscribeRequest request = new SubscribeRequest(kind, model, pk,
                kind == SubscriptionKind.FILTER ? filter : null, null, cursor, null, null,
                membersApply ? members : null);
        return new SseRequest(request, heartbeat, lifetime);
    }

    /**
     * The {@code filter.<key>} parameters as a filter, after refusing a parameter the route does not take and one
     * given more than once (only {@code members} may repeat).
     */
    private static JsonObject filter(Map<String, String[]> parameters) throws ProtocolError {
        JsonObjectBuilder filter = Messages.JSON.createObjectBuilder();
        for (Map.Entry<String, String[]> parameter : parameters.entrySet()) {
            String name = parameter.getKey();
            boolean filterKey = name.startsWith(FILTER_PREFIX) && name.length() > FILTER_PREFIX.length();
            if (!filterKey && !PARAMETERS.contains(name)) {
                throw new ProtocolError(ErrorCode.UNKNOWN_PARAMETER, "Unknown parameter " + ProtocolError.quoted(name)
                        + "; expected kind, pk, filter.<key>, cursor, members, heartbeat or lifetime");
            }
            if (parameter.getValue().length != 1 && !name.equals("members")) {
                throw new ProtocolError(
                        filterKey ? ErrorCode.INVALID_FILTER : invalid(name.equals("pk") ? "kind" : name),
                        "Parameter '" + name + "' is given " + parameter.getValue().length + " times; give it once");
            }
            if (filterKey) {
                filter.add(name.substring(FILTER_PREFIX.length()), parameter.getValue()[0]);
            }
        }
        return filter.build();
    }

    /** The subscription's kind: as named, or else object with a pk and model without; with its parameters checked. */
    private static SubscriptionKind kind(String kindName, String pk, boolean filtered) throws ProtocolError {
        SubscriptionKind kind = kindName == null ? (pk != null ? SubscriptionKind.OBJECT : SubscriptionKind.MODEL)
                : SubscriptionKind.fromWireName(kindName).orElseThrow(() -> new ProtocolError(ErrorCode.INVALID_KIND,
                        "kind must be object, filter or model, not '" + kindName + "'"));
        if (kind == SubscriptionKind.OBJECT && (pk == null || pk.isBlank())) {
            throw new ProtocolError(ErrorCode.INVALID_KIND, "kind=object needs pk");
        }
        if (kind != SubscriptionKind.OBJECT && pk != null) {
            throw new ProtocolError(ErrorCode.INVALID_KIND, "pk applies only to kind=object, not kind="
                    + kind.wireName());
        }
        if (filtered && kind != SubscriptionKind.FILTER) {
            throw new ProtocolError(ErrorCode.INVALID_KIND,
                    "filter.<key> parameters apply only to kind=filter, not kind=" + kind.wireName());
        }
        return kind;
    }

    /** {@code members}, repeated or comma-separated; {@code null} when not given. */
    private static Set<String> members(String[] values, SubscriptionKind kind) throws ProtocolError {
        if (values == null) {
            return null;
        }
        if (kind == SubscriptionKind.OBJECT) {
            throw new ProtocolError(ErrorCode.INVALID_KIND, "members applies only to kind=filter or kind=model");
        }
        Set<String> members = new LinkedHashSet<>();
        for (String value : values) {
            if (value.isEmpty()) {
                continue; // members= : the client holds none
            }
            for (String pk : value.split(",", -1)) {
                if (pk.isBlank() || pk.length() > 1000) {
                    throw new ProtocolError(ErrorCode.INVALID_MEMBERS, "members must be a comma-separated list of pks");
                }
                members.add(pk.trim());
            }
        }
        return members;
    }

    private static String single(Map<String, String[]> parameters, String name) {
        String[] values = parameters.get(name);
        return values == null ? null : values[0];
    }

    private static long cursor(String text, String source) throws ProtocolError {
        BigDecimal value;
        try {
            value = text.length() > 40 ? null : new BigDecimal(text);
        } catch (NumberFormatException e) {
            value = null;
        }
        if (value == null || value.signum() < 0 || value.scale() > 0 || value.compareTo(MAX_CURSOR) > 0
                || !text.chars().allMatch(Character::isDigit)) {
            throw new ProtocolError(ErrorCode.INVALID_CURSOR, source + " must be a cursor: an integer from 0 to "
                    + Long.MAX_VALUE + ", not '" + abbreviated(text) + "'");
        }
        return value.longValueExact();
    }

    /** {@code 25s}, {@code 30m}, {@code 4h}, {@code 500ms}, plain seconds, or as configuration; within [min, max]. */
    private static Duration duration(Map<String, String[]> parameters, String name, Duration fallback, Duration min,
                                     Duration max) throws ProtocolError {
        String text = single(parameters, name);
        if (text == null) {
            return fallback;
        }
        Duration value = SseSettings.parameter(text).orElse(null);
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new ProtocolError(invalid(name), name + " must be a duration from " + text(min) + " to "
                    + text(max) + " (such as 25s, 30m, 4h, or plain seconds), not '" + abbreviated(text) + "'");
        }
        return value;
    }

    static String text(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 3600 == 0 && seconds > 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0 && seconds > 0) {
            return seconds / 60 + "m";
        }
        return duration.toMillis() % 1000 == 0 ? seconds + "s" : duration.toMillis() + "ms";
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }

    /** The code refusing a bad value of one of the parameters this route takes. */
    private static ErrorCode invalid(String parameter) {
        return switch (parameter) {
            case "kind" -> ErrorCode.INVALID_KIND;
            case "cursor" -> ErrorCode.INVALID_CURSOR;
            case "members" -> ErrorCode.INVALID_MEMBERS;
            case "heartbeat" -> ErrorCode.INVALID_HEARTBEAT;
            case "lifetime" -> ErrorCode.INVALID_LIFETIME;
            default -> ErrorCode.INVALID_PARAMETER;
        };
    }
}
