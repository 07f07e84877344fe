package io.objectstreams.it.support;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/**
 * A real WebSocket client of {@code /store/streams/ws}, as one of the demo users or anonymous: the JDK-based client
 * of the tests, the soak and the benchmarks ({@code bench.RawWebSockets} is the one for thousands of connections).
 * It reads one message at a time, so that {@link #pause()} stalls it as a browser tab's would.
 */
public final class StreamClient implements AutoCloseable {

    /** One provider for all parsing: {@code Json.createReader} would look it up again per message. */
    private static final JsonProvider JSON = JsonProvider.provider();

    private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<JsonObject> first = new CompletableFuture<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final BooleanSupplier pausedWhile;
    private final IntConsumer onCloseFrame;
    private final StreamClientOptions.TextListener textListener;
    private volatile WebSocket socket;
    private volatile boolean paused;
    private boolean owed;

    private StreamClient(StreamClientOptions options) {
        pausedWhile = options.pausedWhile();
        onCloseFrame = options.onCloseFrame();
        textListener = options.onText();
    }

    /** Options to {@link #open} or {@link #tryOpen} a client with: those of {@link #connect} until changed. */
    public static StreamClientOptions options() {
        return new StreamClientOptions();
    }

    /** The WebSocket endpoint of the store at {@code deployment} ({@code http://host:port/store/}). */
    public static URI endpoint(URL deployment) {
        return URI.create(deployment.toString().replaceFirst("^http", "ws")).resolve("streams/ws");
    }

    /** Starts the handshake; the future completes with the client once it is open. */
    private static CompletableFuture<StreamClient> start(URI endpoint, StreamClientOptions options) {
        StreamClient client = new StreamClient(options);
        return options.webSocketBuilder().buildAsync(endpoint, client.new Listener()).thenApply(socket -> {
            client.socket = socket;
            return client;
        });
    }

    /**
     * @param deployment the store's base URL ({@code http://host:port/store/})
     * @param user       a demo user (its password is the name followed by {@code -pw}), or {@code user:password}
     */
    public static StreamClient connect(URL deployment, String user) {
        return start(endpoint(deployment), options().login(user)).join();
    }

    /** Connects as a browser page of {@code origin} would (with an {@code Origin} header). */
    public static StreamClient connectFrom(URL deployment, String user, String origin) {
        return start(endpoint(deployment), options().login(user).origin(origin)).join();
    }

    /** Connects as {@code options} say; fails if the handshake fails or does not complete within their wait. */
    public static StreamClient open(URI endpoint, StreamClientOptions options)
            throws InterruptedException, ExecutionException, TimeoutException {
        return await(start(endpoint, options), options.handshakeWait());
    }

    /**
     * Connects as {@code options} say, or returns empty when the handshake fails or does not complete within their
     * wait. A handshake that completes after that is aborted then: else it would stay open, answering the server's
     * pings, a connection the server counts and nobody holds.
     */
    public static Optional<StreamClient> tryOpen(URI endpoint, StreamClientOptions options)
            throws InterruptedException {
        CompletableFuture<StreamClient> opening = start(endpoint, options);
        try {
            return Optional.of(await(opening, options.handshakeWait()));
        } catch (ExecutionException | TimeoutException e) {
            opening.thenAccept(StreamClient::abort);
            return Optional.empty();
        }
    }

    private static StreamClient await(CompletableFuture<StreamClient> opening, Duration wait)
            throws InterruptedException, ExecutionException, TimeoutException {
        return wait == null ? opening.get() : opening.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The HTTP status a handshake from {@code origin} gets: 101 when the connection is upgraded. */
    public static int handshakeStatus(URL deployment, String user, String origin) {
        try {
            options().login(user).origin(origin).webSocketBuilder()
                    .buildAsync(endpoint(deployment), new WebSocket.Listener() { })
                    .join().sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
            return 101;
        } catch (CompletionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
    }

    /** Stops reading: the client's buffers, then the server's, fill up as a stalled browser tab's would. */
    public void pause() {
        paused = true;
    }

    /** Reads again: asks for the message held back while paused, if any. */
    public synchronized void resume() {
        paused = false;
        if (owed) {
            owed = false;
            socket.request(1);
        }
    }

    public StreamClient send(String json) {
        sendAsync(json).join();
        return this;
    }

    /** Sends without waiting: the future completes once the frame went out, or fails. */
    public CompletableFuture<?> sendAsync(String json) {
        return socket.sendText(json, true);
    }

    /**
     * Sends unless the server stops reading for {@code timeout} (as it does once it has given up on a connection
     * whose client stopped reading): whether the frame went out.
     */
    public boolean trySend(String json, Duration timeout) {
        try {
            sendAsync(json).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The next server message, failing the test if none arrives in time. */
    public JsonObject next() throws InterruptedException {
        JsonObject message = received.poll(15, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("no message from the server within 15 s");
        }
        return message;
    }

    /**
     * The next event whose {@code changed_fields} names {@code field}, skipping any other. An object created
     * just before the subscription may still arrive live (its commit can be newer than the subscription's
     * start), so a test that waits for its own write must not take the next event blindly.
     */
    public JsonObject nextChangeOf(String field) throws InterruptedException {
        while (true) {
            JsonObject message = next();
            if ("event".equals(message.getString("type", null)) && message.containsKey("changed_fields")
                    && message.getJsonArray("changed_fields").getValuesAs(JsonString.class).stream()
                            .anyMatch(name -> name.getString().equals(field))) {
                return message;
            }
        }
    }

    /** The next server message within {@code seconds}, or {@code null}. */
    public JsonObject poll(long seconds) throws InterruptedException {
        return received.poll(seconds, TimeUnit.SECONDS);
    }

    /** The next server message within {@code timeout}, or {@code null}. */
    public JsonObject poll(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits {@code millis} and returns whatever arrived meanwhile. */
    public List<JsonObject> drain(long millis) throws InterruptedException {
        Thread.sleep(millis);
        List<JsonObject> messages = new ArrayList<>();
        received.drainTo(messages);
        return messages;
    }

    /**
     * The first message the connection received, whatever came after it and whether or not it was taken since;
     * fails with the connection's error if it failed first, with a {@link TimeoutException} if none came in time.
     */
    public JsonObject first(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        return first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The close code the server sent, or {@code null} if the connection is still open after {@code timeout}. */
    public Integer awaitClosed(Duration timeout) throws InterruptedException {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The close code the server sent, -1 if the connection failed, {@code null} while it is open. */
    public Integer closeCode() {
        return closed.getNow(null);
    }

    /** Whether the connection was closed by the server or failed, and every message it received has been taken. */
    public boolean ended() {
        return closed.isDone() && received.isEmpty();
    }

    /** Closes the connection at once, with no close frame (a client whose process or network went away). */
    public void abort() {
        socket.abort();
    }

    /** Sends a close frame without waiting for it to go out or for the server's answer, then aborts. */
    public void closeAndAbort() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(2, TimeUnit.SECONDS).exceptionally(e -> null);
        socket.abort();
    }

    @Override
    public void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null)
                .join();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            onCloseFrame.accept(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            first.completeExceptionally(error);
            closed.complete(-1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            long arrival = System.nanoTime();
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                if (textListener != null) {
                    textListener.onMessage(text, arrival);
                } else {
                    JsonObject message = JSON.createReader(new StringReader(text)).readObject();
                    first.complete(message);
                    received.add(message);
                }
            }
            synchronized (StreamClient.this) {
                if (paused || pausedWhile.getAsBoolean()) {
                    owed = true;
                } else {
                    webSocket.request(1);
                }
            }
            return null;
        }
    }
}
