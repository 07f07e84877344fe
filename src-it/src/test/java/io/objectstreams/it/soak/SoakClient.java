package io.objectstreams.it.soak;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A soak client: one user, its subscriptions, a transport. It connects to a server that is up, subscribes (from
 * a REST snapshot the first time, from its last cursor after that), applies what it receives, refetches on
 * {@code resync_required}, and while churning drops its connection at random and resumes elsewhere.
 */
abstract class SoakClient implements Runnable {

    /** Members sent on resume, at most (the WebSocket frame and the SSE URL bound them). */
    static final int MAX_MEMBERS_WS = 2_000;
    static final int MAX_MEMBERS_SSE = 150;

    final String name;
    final String user;
    final Cluster cluster;
    final List<SoakSubscription> subscriptions = new ArrayList<>();
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    final AtomicLong connections = new AtomicLong();
    final AtomicLong events = new AtomicLong();
    volatile boolean running = true;
    volatile boolean churning = true;
    volatile boolean paused;
    /** A subscription refetched after a resync and subscribes again with its members: end this connection. */
    volatile boolean resubscribe;
    /** The server this client holds a connection to now, if any. */
    volatile URL connectedTo;
    private Thread thread;

    SoakClient(String name, String user, Cluster cluster) {
        this.name = name;
        this.user = user;
        this.cluster = cluster;
    }

    abstract String transport();

    /** One connection's life: returns when it ended (dropped by either side, churned, or the soak stopping). */
    abstract void connectOnce(URL base) throws InterruptedException;

    void start() {
        thread = new Thread(this, "soak-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join(30_000);
    }

    @Override
    public void run() {
        URL last = null;
        while (running) {
            // Once the churn ends, a client reconnects where it was: what each server holds stays put for the fuzz's
            // connection and heap comparisons.
            URL base = !churning && last != null && cluster.up(last) ? last : cluster.pick();
            last = base;
            try {
                if (base == null) {
                    Thread.sleep(500);
                    continue;
                }
                connections.incrementAndGet();
                resubscribe = false;
                connectOnce(base);
                Thread.sleep(ThreadLocalRandom.current().nextLong(50, 500));
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                error("client:" + e.getClass().getSimpleName());
                note(SoakJournal.What.ENDED, base, "client failed: " + e);
                try {
                    Thread.sleep(500);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** How long this connection lives before the client drops it, in ms, while the client churns. */
    long lifetime() {
        return ThreadLocalRandom.current().nextLong(3_000, 20_000);
    }

    void error(String code) {
        errors.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
    }

    /** Records what happened to the connection to {@code base} in every subscription's journal. */
    void note(SoakJournal.What what, URL base, String detail) {
        String server = base == null ? null : cluster.name(base);
        subscriptions.forEach(s -> s.note(what, server, detail));
    }

    /**
     * Why a connection that was open ended, for the journal: {@code byServer} when the stream or socket ended under
     * the client, else the client's own reason.
     */
    String whyEnded(boolean byServer) {
        return byServer ? "ended by the server or the network" : !running ? "the soak stopped"
                : resubscribe ? "resubscribing after a refetch" : "dropped by the client (churn)";
    }

    /** Applies one server message; returns false when it was an error. */
    boolean handle(URL base, JsonObject message) throws InterruptedException {
        String type = message.getString("type", "");
        switch (type) {
            case "event" -> {
                events.incrementAndGet();
                subscription(message).event(message);
            }
            case "resync_required" -> {
                SoakSubscription subscription = subscription(message);
                subscription.resync(message);
                refetch(base, subscription);
                if (subscription.resubscribesAfterRefetch()) {
                    resubscribe = true;
                }
            }
            case "error" -> {
                String code = message.getString("code", "?");
                error(code);
                // An error names its subscription when it concerns one; else it concerns the connection.
                String id = message.getString("subscription_id", null);
                subscriptions.stream().filter(s -> id == null || s.id.equals(id))
                        .forEach(s -> s.note(SoakJournal.What.ERROR, cluster.name(base), code));
                return false;
            }
            default -> {
            }
        }
        return true;
    }

    private SoakSubscription subscription(JsonObject message) {
        if (subscriptions.size() == 1) {
            return subscriptions.get(0);
        }
        String id = message.getString("subscription_id");
        return subscriptions.stream().filter(s -> s.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalStateException(name + ": message for unknown subscription " + message));
    }

    /** Loads what the subscription covers through REST (on {@code base}, else any server up) until it succeeds. */
    void refetch(URL base, SoakSubscription subscription) throws InterruptedException {
        URL target = base;
        for (int attempt = 0; running; attempt++) {
            Http.Reply reply = Http.send(target, user, "GET", subscription.restPath(), null);
            subscription.note(SoakJournal.What.READ, cluster.name(target),
                    "refetch: HTTP " + reply.status() + ", cursor " + reply.cursor());
            if (reply.ok() && reply.cursor() != null) {
                subscription.snapshot(orders(reply.body()), reply.cursor());
                return;
            }
            if (reply.status() == 404 && subscription.kind == SoakSubscription.Kind.OBJECT && reply.cursor() != null) {
                subscription.snapshot(List.of(), reply.cursor());
                return;
            }
            error("refetch:" + reply.status());
            Thread.sleep(Math.min(2_000, 200L * (attempt + 1)));
            URL other = cluster.pick();
            target = other == null ? target : other;
        }
    }

    private static List<SoakSubscription.Order> orders(JsonValue body) {
        List<SoakSubscription.Order> orders = new ArrayList<>();
        if (body instanceof JsonArray array) {
            array.getValuesAs(JsonObject.class).forEach(o -> orders.add(order(o)));
        } else if (body instanceof JsonObject one) {
            orders.add(order(one));
        }
        return orders;
    }

    private static SoakSubscription.Order order(JsonObject o) {
        return new SoakSubscription.Order(o.getJsonNumber("id").toString(), o.getString("owner"), o.getString("status"));
    }
}
