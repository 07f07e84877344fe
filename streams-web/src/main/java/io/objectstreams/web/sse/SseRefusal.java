package io.objectstreams.web.sse;

import io.objectstreams.web.subscription.Messages;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/** A request the SSE route refuses before the stream opens: an HTTP status and a JSON body with a named code. */
final class SseRefusal extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final transient JsonObject details;

    SseRefusal(int status, String code, String message) {
        this(status, code, message, null);
    }

    SseRefusal(int status, String code, String message, JsonObject details) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    /** {@code {"code": ..., "message": ..., "details": ...}} */
    String body() {
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder().add("code", code).add("message", getMessage());
        if (details != null) {
            body.add("details", details);
        }
        return body.build().toString();
    }
}
