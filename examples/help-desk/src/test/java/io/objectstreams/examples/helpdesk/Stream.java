package io.objectstreams.examples.helpdesk;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
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
import java.util.function.Predicate;

/** A WebSocket connection to the help desk's {@code streams/ws}, signed in as one user. */
final class Stream implements AutoCloseable {

    private final WebSocket socket;
    private final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
    private final List<JsonObject> passed = new ArrayList<>();

    Stream(URL deployment, String user) {
        URI endpoint = URI.create(deployment.toString().replaceFirst("^http", "ws")).resolve("streams/ws");
        socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .header("Authorization", Api.basic(user)).buildAsync(endpoint, new Listener()).join();
    }

    /** Subscribes and returns the {@code subscribed} answer (failing on anything else). */
    JsonObject subscribe(String json) throws InterruptedException {
        socket.sendText(json, true).join();
        JsonObject answer = next(message -> !"event".equals(message.getString("type")));
        if (!"subscribed".equals(answer.getString("type"))) {
            throw new AssertionError("expected subscribed, got " + answer);
        }
        return answer;
    }

    /**
     * The first message that {@code wanted} accepts, failing the test if none arrives within 15 s. The messages it
     * passes over are kept, in order, for later calls: a connection carries several subscriptions, whose events
     * interleave.
     */
    JsonObject next(Predicate<JsonObject> wanted) throws InterruptedException {
        for (var kept = passed.iterator(); kept.hasNext(); ) {
            JsonObject message = kept.next();
            if (wanted.test(message)) {
                kept.remove();
                return message;
            }
        }
        while (true) {
            JsonObject message = next();
            if (wanted.test(message)) {
                return message;
            }
            passed.add(message);
        }
    }

    /** The messages passed over so far, which no later call will return; clears them. */
    List<JsonObject> takePassed() {
        List<JsonObject> taken = new ArrayList<>(passed);
        passed.clear();
        return taken;
    }

    /** The next message received, failing the test if none arrives within 15 s. */
    JsonObject next() throws InterruptedException {
        JsonObject message = received.poll(15, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("no message from the server within 15 s");
        }
        return message;
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
