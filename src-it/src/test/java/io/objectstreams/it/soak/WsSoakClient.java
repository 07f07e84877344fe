package io.objectstreams.it.soak;

import io.objectstreams.it.support.Auth;
import io.objectstreams.it.support.JsonFrames;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** A soak client on the WebSocket: all its subscriptions on one connection. */
final class WsSoakClient extends SoakClient {

    WsSoakClient(String name, String user, Cluster cluster) {
        super(name, user, cluster);
    }

    @Override
    String transport() {
        return "ws";
    }

    @Override
    int maxMembers() {
        return MAX_MEMBERS_WS;
    }

    @Override
    void connectOnce(URL base) throws InterruptedException {
        for (SoakSubscription subscription : subscriptions) {
            if (!subscription.started()) {
                refetch(base, subscription);
            }
        }
        Connection connection = new Connection();
        WebSocket socket;
        java.util.concurrent.CompletableFuture<WebSocket> opening = Http.CLIENT.newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .header("Authorization", Auth.basic(user))
                .buildAsync(URI.create(base.toString().replaceFirst("^http", "ws")).resolve("streams/ws"), connection);
        try {
            socket = opening.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // A handshake that completes after the client gave up would stay open, answering the server's pings,
            // and be counted by the server but not by the soak: close it whenever it completes.
            opening.thenAccept(WebSocket::abort);
            error("connect");
            Thread.sleep(500);
            return;
        }
        connectedTo = base;
        try {
            for (SoakSubscription subscription : subscriptions) {
                socket.sendText(subscription.subscribeMessage(MAX_MEMBERS_WS, cluster.name(base)), true).get(10, TimeUnit.SECONDS);
                if (!awaitReply(base, connection, subscription)) {
                    return;
                }
            }
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lifetime());
            while (running && !resubscribe && (!churning || System.nanoTime() - until < 0)
                    && !(connection.closed && connection.received.isEmpty())) {
                if (paused) {
                    Thread.sleep(100);
                    continue;
                }
                connection.demand(socket);
                JsonObject message = connection.received.poll(200, TimeUnit.MILLISECONDS);
                if (message != null) {
                    handle(base, message);
                }
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            error("send");
        } finally {
            connectedTo = null;
            if (ThreadLocalRandom.current().nextBoolean()) {
                socket.abort();
            } else {
                socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(2, TimeUnit.SECONDS).exceptionally(e -> null);
                socket.abort();
            }
        }
    }

    /** Processes messages until the reply to the subscribe; false when it was refused or the connection ended. */
    private boolean awaitReply(URL base, Connection connection, SoakSubscription subscription) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            JsonObject message = connection.received.poll(200, TimeUnit.MILLISECONDS);
            if (message == null) {
                if (connection.closed) {
                    return false;
                }
                continue;
            }
            String type = message.getString("type", "");
            if (type.equals("subscribed") && message.getString("subscription_id").equals(subscription.id)) {
                subscription.subscribed(message, null);
                return true;
            }
            if (!handle(base, message)) {
                Thread.sleep(1_000);
                return false;
            }
            if (resubscribe) {
                return false;
            }
        }
        error("no-reply");
        return false;
    }

    /** Reads one message at a time, and only while the client is not paused (a paused client is a slow consumer). */
    private final class Connection implements WebSocket.Listener {
        final BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
        private final JsonFrames frames = new JsonFrames(received::add);
        volatile boolean closed;
        private boolean owed;

        @Override
        public void onOpen(WebSocket webSocket) {
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            frames.append(data, last);
            synchronized (this) {
                if (paused) {
                    owed = true;
                } else {
                    webSocket.request(1);
                }
            }
            return null;
        }

        synchronized void demand(WebSocket webSocket) {
            if (owed) {
                owed = false;
                webSocket.request(1);
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed = true;
            if (statusCode != WebSocket.NORMAL_CLOSURE) {
                error("close:" + statusCode);
            }
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed = true;
        }
    }
}
