package io.objectstreams.it.support;

import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A real WebSocket client of {@code /store/streams/ws}, as one of the demo users or anonymous. */
public final class StreamClient implements AutoCloseable {

    private final WebSocket socket;
    private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
    private final java.util.concurrent.CompletableFuture<Integer> closed = new java.util.concurrent.CompletableFuture<>();
    private volatile boolean paused;
    private boolean owed;

    private StreamClient(URI uri, String user, String origin) {
        socket = builder(user, origin).buildAsync(uri, new Listener()).join();
    }

    private static WebSocket.Builder builder(String user, String origin) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (user != null) {
            builder.header("Authorization", Auth.basicLogin(user));
        }
        if (origin != null) {
            builder.header("Origin", origin);
        }
        return builder;
    }

    private static URI endpoint(URL deployment) {
        return URI.create(deployment.toString().replaceFirst("^http", "ws")).resolve("streams/ws");
    }

    /**
     * @param deployment the store's base URL ({@code http://host:port/store/})
     * @param user       a demo user (its password is the name followed by {@code -pw}), or {@code user:password}
     */
    public static StreamClient connect(URL deployment, String user) {
        return new StreamClient(endpoint(deployment), user, null);
    }

    /** Connects as a browser page of {@code origin} would (with an {@code Origin} header). */
    public static StreamClient connectFrom(URL deployment, String user, String origin) {
        return new StreamClient(endpoint(deployment), user, origin);
    }

    /** The HTTP status a handshake from {@code origin} gets: 101 when the connection is upgraded. */
    public static int handshakeStatus(URL deployment, String user, String origin) {
        try {
            builder(user, origin).buildAsync(endpoint(deployment), new WebSocket.Listener() { })
                    .join().sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
            return 101;
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof java.net.http.WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
    }

    /** Stops reading: the client's buffers, then the server's, fill up as a stalled browser tab's would. */
    public void pause() {
        paused = true;
    }

    /** Reads again. */
    public synchronized void resume() {
        paused = false;
        if (owed) {
            owed = false;
            socket.request(1);
        }
    }

    public StreamClient send(String json) {
        socket.sendText(json, true).join();
        return this;
    }

    /**
     * Sends unless the server stops reading for {@code timeout} (as it does once it has given up on a connection
     * whose client stopped reading): whether the frame went out.
     */
    public boolean trySend(String json, Duration timeout) {
        try {
            socket.sendText(json, true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
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
                    && message.getJsonArray("changed_fields").getValuesAs(jakarta.json.JsonString.class).stream()
                            .anyMatch(name -> name.getString().equals(field))) {
                return message;
            }
        }
    }

    /** The next server message within {@code seconds}, or {@code null}. */
    public JsonObject poll(long seconds) throws InterruptedException {
        return received.poll(seconds, TimeUnit.SECONDS);
    }

    /** Waits {@code millis} and returns whatever arrived meanwhile. */
    public List<JsonObject> drain(long millis) throws InterruptedException {
        Thread.sleep(millis);
        List<JsonObject> messages = new ArrayList<>();
        received.drainTo(messages);
        return messages;
    }

    /** The close code the server sent, or {@code null} if the connection is still open after {@code timeout}. */
    public Integer awaitClosed(Duration timeout) throws InterruptedException {
        try {
            return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
    }

    private final class Listener implements WebSocket.Listener {
        private final JsonFrames frames = new JsonFrames(received::add);

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            frames.append(data, last);
            synchronized (StreamClient.this) {
                if (paused) {
                    owed = true;
                } else {
                    webSocket.request(1);
                }
            }
            return null;
        }
    }
}
