package io.objectstreams.web.socket;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.subscription.Messages;
import io.objectstreams.web.subscription.OutboundMessage;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.subscription.RateLimitedLog;
import io.objectstreams.web.subscription.RequestQueue;
import io.objectstreams.web.subscription.StreamSession;
import io.objectstreams.web.subscription.SubscribeRequest;
import io.objectstreams.web.subscription.Subscriber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.websocket.CloseReason;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One WebSocket connection as the engine sees it: text frames in, protocol messages out with the container's
 * asynchronous send. Frames are parsed and dispatched here; a bad one gets a named {@code error} and the
 * connection carries on (G12).
 */
final class WebSocketSubscriber implements Subscriber {

    private static final Logger LOG = Logger.getLogger(WebSocketSubscriber.class.getName());
    /** Server-side failures while handling client messages: one stack trace a minute, the rest counted. */
    private static final RateLimitedLog FAILURES = new RateLimitedLog(Duration.ofMinutes(1));
    /**
     * The context class loader sends and pings run with. Payara's WebSocket implementation reschedules the
     * session's idle timer on every send, even with no idle timeout, through a managed executor that captures the
     * caller's context; capturing it scans every jar the context class loader sees for service files, which cost
     * more than the send itself (docs/benchmarks.md, "Delivery"). The container's idle timeout is always off
     * ({@code streams.websocket.max-idle} is kept by {@link WebSocketKeepAlive}), so that timer never acts, and
     * the platform class loader, which has nothing to scan, is enough. {@link TyrusIdleTimer} skips that task
     * altogether; this still matters when {@code streams.websocket.skip-container-idle-timer} is off.
     */
    private static final ClassLoader SEND_LOADER = ClassLoader.getPlatformClassLoader();
    private static final byte[] PING = "streams".getBytes(StandardCharsets.US_ASCII);

    private final Session socket;
    private final int maxFrameBytes;
    private StreamSession session;
    /** This connection's requests, handled in order off the container's threads. */
    private RequestQueue requests;
    /** When the client last showed it is there (a pong or a message), by {@link System#nanoTime}. */
    private volatile long lastHeard = System.nanoTime();
    /** When a message last went either way (pings and pongs do not count), by {@link System#nanoTime}. */
    private volatile long lastActive = lastHeard;
    /** When the keep-alive pings next; read and written by its clock only. */
    long nextPing = lastHeard;

    WebSocketSubscriber(Session socket, int maxFrameBytes) {
        this.socket = socket;
        this.maxFrameBytes = maxFrameBytes;
    }

    void attach(StreamSession engineSession, RequestQueue queue) {
        requests = queue;
        this.session = engineSession;
    }

    @Override
    public String id() {
        return "ws:" + socket.getId();
    }

    @Override
    public String transport() {
        return "websocket";
    }

    @Override
    public void send(OutboundMessage message, Consumer<Throwable> done) {
        Thread current = Thread.currentThread();
        ClassLoader application = current.getContextClassLoader();
        try {
            lastActive = System.nanoTime();
            current.setContextClassLoader(SEND_LOADER);
            socket.getAsyncRemote().sendText(message.text(),
                    (SendResult result) -> done.accept(result.isOK() ? null : result.getException()));
        } finally {
            current.setContextClassLoader(application);
        }
    }

    /** The client answered a ping. */
    void heard() {
        lastHeard = System.nanoTime();
    }

    /**
     * Whether nothing was heard from the client (pongs and messages) for longer than {@code limitNanos} at
     * {@code now}. Never while the server holds this connection's reader for its requests to be answered: the
     * client's pongs then wait unread behind its messages, and the slow one is the server.
     */
    boolean unheardFor(long now, long limitNanos) {
        return now - lastHeard > limitNanos && !readerHeld();
    }

    /** Whether no message went either way for longer than {@code limitNanos}; never while its reader is held. */
    boolean inactiveFor(long now, long limitNanos) {
        return now - lastActive > limitNanos && !readerHeld();
    }

    private boolean readerHeld() {
        return requests != null && requests.holdsReader();
    }

    /**
     * Sends a ping without waiting for it (the asynchronous remote's ping does not block on either server).
     * Returns false when the container refuses it: the connection is gone.
     */
    boolean ping() {
        Thread current = Thread.currentThread();
        ClassLoader application = current.getContextClassLoader();
        try {
            current.setContextClassLoader(SEND_LOADER);
            socket.getAsyncRemote().sendPing(ByteBuffer.wrap(PING));
            return true;
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            LOG.log(Level.FINE, "Pinging WebSocket session " + socket.getId() + " failed", e);
            return false;
        } finally {
            current.setContextClassLoader(application);
        }
    }

    @Override
    public void close(String reason, boolean clientFault) {
        close(clientFault ? CloseReason.CloseCodes.VIOLATED_POLICY : CloseReason.CloseCodes.UNEXPECTED_CONDITION,
                reason);
    }

    void close(CloseReason.CloseCode code, String reason) {
        try {
            socket.close(new CloseReason(code, reason));
        } catch (IOException | RuntimeException e) {
            // Never thrown on: the keep-alive's clock calls this, and a periodic task that throws is never run again.
            // The client is owed nothing more here: the engine has already let the connection go, and a close that
            // fails means the connection is already closed or broken, so the client sees it drop and reconnects with
            // its last cursor (replay, or resync_required).
            LOG.log(Level.FINE, "Closing WebSocket session " + socket.getId() + " failed", e);
        }
    }

    /** Takes one client frame: it is handled after the connection's earlier ones, on a start thread (RequestQueue). */
    void handle(String text) {
        lastHeard = System.nanoTime();
        lastActive = lastHeard;
        if (tooLarge(text, maxFrameBytes)) {
            // Refused in turn, holding none of the text: a client cannot fill the server's memory with frames.
            ProtocolError refused = new ProtocolError(ErrorCode.INVALID_REQUEST, "The message is larger than "
                    + maxFrameBytes + " bytes (streams.websocket.max-frame-bytes)");
            if (!requests.submit(() -> session.refuse(refused), 0)) {
                session.refuse(refused);
            }
            return;
        }
        boolean queued = requests.submit(() -> handleNow(text), text.length());
        // The submit may have waited for room, reading nothing meanwhile: the client's silence starts only now.
        lastHeard = System.nanoTime();
        lastActive = lastHeard;
        if (!queued) {
            // Interrupted while waiting for room, or the server is stopping: answered, never silently dropped.
            session.refuse(new ProtocolError(ErrorCode.UNAVAILABLE, "The server could not take this message now;"
                    + " send it again"));
        }
    }

    /** The connection ended: requests still waiting are dropped. */
    void ended() {
        if (requests != null) {
            requests.close();
        }
    }

    private void handleNow(String text) {
        try {
            JsonObject message = parse(text);
            String op = SubscribeRequest.required(message, "op");
            switch (op) {
                case "subscribe" -> session.subscribe(parseSubscribe(message));
                case "unsubscribe" -> session.unsubscribe(SubscribeRequest.required(message, "subscription_id"));
                default -> throw new ProtocolError(ErrorCode.INVALID_REQUEST,
                        "Unknown op " + ProtocolError.quoted(op) + "; expected subscribe or unsubscribe");
            }
        } catch (ProtocolError error) {
            session.refuse(error);
        } catch (RuntimeException e) {
            FAILURES.log(LOG, "A WebSocket message on session " + socket.getId() + " failed", e);
            session.refuse(new ProtocolError(ErrorCode.INVALID_REQUEST,
                    "The server could not process this message (" + e.getClass().getSimpleName() + "); it is logged"));
        }
    }

    /** A subscribe the server cannot parse is refused about the subscription it names, if it names one. */
    private static SubscribeRequest parseSubscribe(JsonObject message) throws ProtocolError {
        try {
            return SubscribeRequest.parse(message);
        } catch (ProtocolError refused) {
            throw message.get("subscription_id") instanceof JsonString id
                    && id.getString().length() <= SubscribeRequest.MAX_ID_CHARS
                    ? refused.about(id.getString()) : refused;
        }
    }

    /** UTF-8 takes 1 to 3 bytes per char (4 per surrogate pair): encode only when the length cannot decide. */
    private static boolean tooLarge(String text, int maxBytes) {
        if (text.length() > maxBytes) {
            return true;
        }
        return text.length() * 3L > maxBytes && text.getBytes(StandardCharsets.UTF_8).length > maxBytes;
    }

    private static String abbreviated(String text) {
        return text.length() <= 120 ? text : text.substring(0, 117) + "...";
    }

    private static JsonObject parse(String text) throws ProtocolError {
        JsonStructure structure;
        try (JsonReader reader = Messages.JSON.createReader(new StringReader(text))) {
            structure = reader.read();
        } catch (RuntimeException e) {
            // Whatever the parser throws (syntax, nesting deeper than it allows, numbers it refuses) is the client's
            // text, answered with a code and logged at FINE only: bad input must not flood the log (G12).
            LOG.log(Level.FINE, "Unparsable WebSocket message", e);
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "The message is not valid JSON"
                    + (e.getMessage() == null ? "" : ": " + abbreviated(e.getMessage())));
        }
        if (!(structure instanceof JsonObject object)) {
            throw new ProtocolError(ErrorCode.INVALID_REQUEST, "A message must be a JSON object");
        }
        return object;
    }
}
