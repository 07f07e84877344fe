package io.objectstreams.web.subscription;

import jakarta.json.JsonObject;

/** A client message the server refuses, with the protocol's error code (G12); the session stays open. */
public final class ProtocolError extends Exception {

    private static final long serialVersionUID = 1L;

    public static final String INVALID_REQUEST = "invalid_request";
    public static final String INVALID_CURSOR = "invalid_cursor";
    public static final String NOT_FOUND = "not_found";
    public static final String NOT_SUBSCRIBED = "not_subscribed";
    public static final String UNSUPPORTED_SEARCH = "unsupported_search";
    public static final String DUPLICATE_SUBSCRIPTION = "duplicate_subscription";
    public static final String SUBSCRIPTION_LIMIT_EXCEEDED = "subscription_limit_exceeded";
    public static final String INVALID_FILTER = "invalid_filter";
    public static final String SUBSCRIPTION_TOO_LARGE = "subscription_too_large";
    public static final String MEMBER_LIMIT_EXCEEDED = "member_limit_exceeded";
    public static final String CONNECTION_LIMIT_EXCEEDED = "connection_limit_exceeded";
    public static final String UNAVAILABLE = "unavailable";

    private final String code;
    private final transient JsonObject details;

    public ProtocolError(String code, String message) {
        this(code, message, null);
    }

    public ProtocolError(String code, String message, JsonObject details) {
        super(message, null, false, false);
        this.code = code;
        this.details = details;
    }

    public String code() {
        return code;
    }

    public JsonObject details() {
        return details;
    }
}
