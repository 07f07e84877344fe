package io.objectstreams.protocol;

import java.util.Locale;

/**
 * Why the server refused a request ({@code error}'s {@code code}, G12), with the HTTP status the refusal takes
 * where the request was an HTTP one (an SSE subscribe, an admin call). A WebSocket client gets the code alone and
 * its connection carries on.
 */
public enum ErrorCode {
    INVALID_REQUEST(400),
    INVALID_CURSOR(400),
    INVALID_FILTER(400),
    INVALID_KIND(400),
    INVALID_MEMBERS(400),
    INVALID_HEARTBEAT(400),
    INVALID_LIFETIME(400),
    INVALID_PARAMETER(400),
    UNKNOWN_PARAMETER(400),
    UNSUPPORTED_SEARCH(400),
    NOT_FOUND(404),
    MODEL_NOT_FOUND(404),
    NOT_SUBSCRIBED(400),
    DUPLICATE_SUBSCRIPTION(400),
    SUBSCRIPTION_LIMIT_EXCEEDED(400),
    SUBSCRIPTION_TOO_LARGE(400),
    MEMBER_LIMIT_EXCEEDED(400),
    NO_RETENTION_BOUND(400),
    AUTHENTICATION_REQUIRED(401),
    FORBIDDEN(403),
    ORIGIN_NOT_ALLOWED(403),
    PRUNE_IN_PROGRESS(409),
    CONNECTION_LIMIT_EXCEEDED(429),
    UNAVAILABLE(503);

    private final int httpStatus;
    private final String wireName = name().toLowerCase(Locale.ROOT);

    ErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    /** The protocol spelling, e.g. {@code invalid_cursor}. */
    public String wireName() {
        return wireName;
    }

    /** The status of an HTTP response refusing for this reason: the client's fault (4xx), or not possible now. */
    public int httpStatus() {
        return httpStatus;
    }
}
