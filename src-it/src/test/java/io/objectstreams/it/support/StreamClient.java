package io.objectstreams.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A real WebSocket client of {@code /store/streams/ws}, as one of the demo users or anonymous. */
public final class StreamClient implements AutoCloseable {

    private final WebSocket socket;
    private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();

    private StreamClient(URI uri, String user) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (user != null) {
            builder.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8)));
        }
        socket = builder.buildAsync(uri, new Listener()).join();
    }

    /** @param deployment the store's base URL ({@code http://host:port/store/}) */
    public static StreamClient connect(URL deployment, String user) {
        return new StreamClient(URI.create(deployment.toString().replaceFirst("^http", "ws")).resolve("streams/ws"), user);
    }

    public StreamClient send(String json) {
        socket.sendText(json, true).join();
        return this;
    }

    /** The next server message, failing the test if none arrives in time. */
    public JsonObject next() throws InterruptedException {
        JsonObject message = received.poll(15, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("no message from the server within 15 s");
        }
        return message;
    }

    /** Waits {@code millis} and returns whatever arrived meanwhile. */
    public List<JsonObject> drain(long millis) throws InterruptedException {
        Thread.sleep(millis);
        List<JsonObject> messages = new ArrayList<>();
        received.drainTo(messages);
        return messages;
    }

    @Override
    public void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(Json.createReader(new StringReader(partial.toString())).readObject());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }
}
