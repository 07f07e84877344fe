package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

/**
 * A request the server refuses, on any route, with the protocol's error code (G12): a WebSocket message (the
 * session stays open), an SSE subscribe or an admin call (answered with the code's HTTP status and {@link #body}).
 */
public final class ProtocolError extends Exception {

    private static final long serialVersionUID = 1L;

    /** The most of a client's own text quoted back in a message ({@link #quoted}). */
    static final int MAX_QUOTED_CHARS = 40;
    /** The longest message sent, whatever it quotes: a refusal must cost the server less than the request did. */
    static final int MAX_MESSAGE_CHARS = 300;
    /** The longest {@link #details} sent; longer ones are left out, and the message says so. */
    static final int MAX_DETAILS_CHARS = 2_048;

    /** The detail naming the setting whose limit refused a request ({@link #limit}). */
    static final String SETTING = "setting";

    private final ErrorCode code;
    private final transient JsonObject details;
    private final String subscriptionId;

    public ProtocolError(ErrorCode code, String message) {
        this(code, message, null);
    }

    /**
     * A refusal because a limit of this server's was reached: {@code details.setting} names its key, so a client and
     * the refusal metrics can tell which limit it met without parsing the message.
     */
    public static ProtocolError limit(ErrorCode code, String setting, String message) {
        return limit(code, setting, message, Messages.JSON.createObjectBuilder());
    }

    /** The same, with more details ({@code subscription_id}). */
    public static ProtocolError limit(ErrorCode code, String setting, String message, JsonObjectBuilder details) {
        return new ProtocolError(code, message, details.add(SETTING, setting).build());
    }

    public ProtocolError(ErrorCode code, String message, JsonObject details) {
        this(code, bounded(message, details), details == null || details.toString().length() <= MAX_DETAILS_CHARS
                ? details : null, null);
    }

    private ProtocolError(ErrorCode code, String message, JsonObject details, String subscriptionId) {
        super(message, null, false, false);
        this.code = code;
        this.details = details;
        this.subscriptionId = subscriptionId;
    }

    /**
     * This refusal as the answer about subscription {@code id}: the reply carries it as {@code subscription_id}, so
     * a client routes it to the subscription it concerns (never silent). An id it already names is kept.
     */
    public ProtocolError about(String id) {
        return subscriptionId != null || id == null ? this : new ProtocolError(code, getMessage(), details, id);
    }

    /** The subscription this refusal is about, or {@code null} when it concerns the request or the connection. */
    public String subscriptionId() {
        return subscriptionId;
    }

    /**
     * A client's own text, quoted in a message: at most {@value #MAX_QUOTED_CHARS} characters of it, so a refusal
     * never echoes what a client chose to make large (G12, G15).
     */
    public static String quoted(String clientText) {
        return "'" + (clientText.length() <= MAX_QUOTED_CHARS ? clientText
                : clientText.substring(0, MAX_QUOTED_CHARS) + "...' (" + clientText.length() + " characters)") + "'";
    }

    private static String bounded(String message, JsonObject details) {
        String text = message.length() <= MAX_MESSAGE_CHARS ? message : message.substring(0, MAX_MESSAGE_CHARS) + "...";
        return details != null && details.toString().length() > MAX_DETAILS_CHARS
                ? text + " (details left out: longer than " + MAX_DETAILS_CHARS + " characters)" : text;
    }

    public ErrorCode code() {
        return code;
    }

    /** What more the client may need to correct its request (a filter's messages per key), or {@code null}. */
    public JsonObject details() {
        return details;
    }

    /** The key of the setting whose limit refused this request, or {@code null}. */
    public String setting() {
        return setting(details);
    }

    /** The setting named by the {@code details} of an error, or {@code null}. */
    static String setting(JsonObject details) {
        return details != null && details.get(SETTING) instanceof JsonString name ? name.getString() : null;
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
