package io.objectstreams.it.support;

import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * How a {@link StreamClient} connects (HTTP client, timeouts, headers) and what it tells its owner as it reads.
 *
 * <p>The defaults are those of {@link StreamClient#connect}: a new HTTP client per connection, a 10 s connect
 * timeout, anonymous, messages parsed and queued for {@link StreamClient#next()} and its kin.
 */
public final class StreamClientOptions {

    /** Hears each whole text message, in place of its being parsed and queued. */
    @FunctionalInterface
    public interface TextListener {
        /**
         * @param text    the message, all its parts joined
         * @param arrival {@link System#nanoTime()} at the start of the {@code onText} call that completed it, before
         *                any parsing or queueing
         */
        void onMessage(String text, long arrival);
    }

    private HttpClient http;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration handshakeWait;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private BooleanSupplier pausedWhile = () -> false;
    private IntConsumer onCloseFrame = code -> { };
    private TextListener onText;

    StreamClientOptions() {
    }

    /** The HTTP client to connect with (a soak's or a benchmark's shared one); else a new one per connection. */
    public StreamClientOptions http(HttpClient client) {
        this.http = client;
        return this;
    }

    /** The WebSocket builder's connect timeout; {@code null} for none but the HTTP client's own. */
    public StreamClientOptions connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    /**
     * How long {@link StreamClient#open} and {@link StreamClient#tryOpen} wait for the handshake; {@code null}
     * (the default) for as long as it takes.
     */
    public StreamClientOptions handshakeWait(Duration wait) {
        this.handshakeWait = wait;
        return this;
    }

    /**
     * Signs in as {@code login}: a demo user (its password is the name followed by {@code -pw}), or
     * {@code user:password}; {@code null} for anonymous.
     */
    public StreamClientOptions login(String login) {
        if (login == null) {
            headers.remove("Authorization");
        } else {
            headers.put("Authorization", Auth.basicLogin(login));
        }
        return this;
    }

    /** Connects as a browser page of {@code origin} would (with an {@code Origin} header); {@code null} for none. */
    public StreamClientOptions origin(String origin) {
        if (origin == null) {
            headers.remove("Origin");
        } else {
            headers.put("Origin", origin);
        }
        return this;
    }

    /** An extra handshake header. */
    public StreamClientOptions header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /**
     * Reads no further message while {@code stalled} says so, as after {@link StreamClient#pause()}; the message
     * it held back is asked for by {@link StreamClient#resume()}.
     */
    public StreamClientOptions pausedWhile(BooleanSupplier stalled) {
        this.pausedWhile = stalled;
        return this;
    }

    /** Told the code of the close frame the server sends (not of a connection that fails or is aborted). */
    public StreamClientOptions onCloseFrame(IntConsumer closeCode) {
        this.onCloseFrame = closeCode;
        return this;
    }

    /**
     * Hands each whole message's text to {@code listener} on the client's reading thread, instead of parsing and
     * queueing it: {@link StreamClient#next()}, {@code poll}, {@code drain} and {@code first} then see nothing.
     */
    public StreamClientOptions onText(TextListener listener) {
        this.onText = listener;
        return this;
    }

    WebSocket.Builder webSocketBuilder() {
        WebSocket.Builder builder = (http != null ? http : HttpClient.newHttpClient()).newWebSocketBuilder();
        if (connectTimeout != null) {
            builder.connectTimeout(connectTimeout);
        }
        headers.forEach(builder::header);
        return builder;
    }

    Duration handshakeWait() {
        return handshakeWait;
    }

    BooleanSupplier pausedWhile() {
        return pausedWhile;
    }

    IntConsumer onCloseFrame() {
        return onCloseFrame;
    }

    TextListener onText() {
        return onText;
    }
}
