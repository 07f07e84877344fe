package io.objectstreams.it.soak;

import io.objectstreams.it.support.StreamClient;
import jakarta.json.JsonObject;
import java.net.URL;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    void connectOnce(URL base) throws InterruptedException {
        for (SoakSubscription subscription : subscriptions) {
            if (!subscription.started()) {
                refetch(base, subscription);
            }
        }
        // Reads one message at a time, and only while the client is not paused (a paused client is a slow consumer).
        // A handshake that completes after the client gave up is aborted when it does (tryOpen), else it would stay
        // open, answering the server's pings, and be counted by the server but not by the soak.
        Optional<StreamClient> opened = StreamClient.tryOpen(StreamClient.endpoint(base), StreamClient.options()
                .http(Http.CLIENT).connectTimeout(Duration.ofSeconds(5)).handshakeWait(Duration.ofSeconds(10))
                .login(user).pausedWhile(() -> paused).onCloseFrame(this::closedBy));
        if (opened.isEmpty()) {
            error("connect");
            note(SoakJournal.What.REFUSED, base, "websocket handshake failed");
            Thread.sleep(500);
            return;
        }
        StreamClient connection = opened.get();
        connectedTo = base;
        note(SoakJournal.What.OPEN, base, "websocket");
        String why = "interrupted or failed";
        try {
            for (SoakSubscription subscription : subscriptions) {
                connection.sendAsync(subscription.subscribeMessage(MAX_MEMBERS_WS, cluster.name(base)))
                        .get(10, TimeUnit.SECONDS);
                String refused = awaitReply(base, connection, subscription);
                if (refused != null) {
                    why = refused;
                    return;
                }
            }
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lifetime());
            while (running && !resubscribe && (!churning || System.nanoTime() - until < 0) && !connection.ended()) {
                if (paused) {
                    Thread.sleep(100);
                    continue;
                }
                connection.resume();
                JsonObject message = connection.poll(Duration.ofMillis(200));
                if (message != null) {
                    handle(base, message);
                }
            }
            why = whyEnded(connection.ended());
        } catch (ExecutionException | TimeoutException e) {
            error("send");
            why = "sending a subscribe failed: " + e;
        } finally {
            connectedTo = null;
            Integer code = connection.closeCode();
            note(SoakJournal.What.ENDED, base, why + (code == null ? "" : ", close code " + code));
            if (ThreadLocalRandom.current().nextBoolean()) {
                connection.abort();
            } else {
                connection.closeAndAbort();
            }
        }
    }

    /** Counts a close frame from the server other than a normal closure as an error. */
    private void closedBy(int code) {
        if (code != WebSocket.NORMAL_CLOSURE) {
            error("close:" + code);
        }
    }

    /**
     * Processes messages until the reply to the subscribe; returns {@code null} once subscribed, else why the
     * connection gives up (it was refused, or ended), for the journal.
     */
    private String awaitReply(URL base, StreamClient connection, SoakSubscription subscription)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            JsonObject message = connection.poll(Duration.ofMillis(200));
            if (message == null) {
                if (connection.closeCode() != null) {
                    return "closed before subscribed to " + subscription.id;
                }
                continue;
            }
            String type = message.getString("type", "");
            if (type.equals("subscribed") && message.getString("subscription_id").equals(subscription.id)) {
                subscription.subscribed(message, null);
                return null;
            }
            if (!handle(base, message)) {
                Thread.sleep(1_000);
                return "an error answered the subscribe of " + subscription.id;
            }
            if (resubscribe) {
                return whyEnded(false);
            }
        }
        error("no-reply");
        return "no reply to the subscribe of " + subscription.id + " within 30 s";
    }
}
