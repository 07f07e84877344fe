package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * A request the server refuses, on any route, with the protocol's error code (G12): a WebSocket message (the
 * session stays open), an SSE subscribe or an admin call (answered with the code's HTTP status and {@link #body}).
 */
public final class ProtocolError extends Exception {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final transient JsonObject details;

    public ProtocolError(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ProtocolError(ErrorCode code, String message, JsonObject details) {
        super(message, null, false, false);
        this.code = code;
        this.details = details;
    }

    public ErrorCode code() {
        return code;
    }

    /** What more the client may need to correct its request (a filter's messages per key), or {@code null}. */
    public JsonObject details() {
        return details;
    }

    /** The HTTP status of an HTTP request refused for this reason. */
    public int httpStatus() {
        return code.httpStatus();
    }

    /** The body of an HTTP refusal: {@code {"code": ..., "message": ..., "details": ...}}. */
    public String body() {
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder().add("code", code.wireName())
                .add("message", getMessage());
        if (details != null) {
            body.add("details", details);
        }
        return body.build().toString();
    }
}
