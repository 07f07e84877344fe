package io.objectstreams.web.socket;

import jakarta.json.JsonObject;

/** A client message the server refuses, with the protocol's error code (G12); the session stays open. */
final class ProtocolError extends Exception {

    private static final long serialVersionUID = 1L;

    static final String INVALID_REQUEST = "invalid_request";
    static final String INVALID_CURSOR = "invalid_cursor";
    static final String NOT_FOUND = "not_found";
    static final String NOT_SUBSCRIBED = "not_subscribed";
    static final String UNSUPPORTED_SEARCH = "unsupported_search";
    static final String DUPLICATE_SUBSCRIPTION = "duplicate_subscription";
    static final String SUBSCRIPTION_LIMIT_EXCEEDED = "subscription_limit_exceeded";
    static final String INVALID_FILTER = "invalid_filter";
    static final String SUBSCRIPTION_TOO_LARGE = "subscription_too_large";

    private final String code;
    private final transient JsonObject details;

    ProtocolError(String code, String message) {
        this(code, message, null);
    }

    ProtocolError(String code, String message, JsonObject details) {
        super(message, null, false, false);
        this.code = code;
        this.details = details;
    }

    String code() {
        return code;
    }

    JsonObject details() {
        return details;
    }
}
