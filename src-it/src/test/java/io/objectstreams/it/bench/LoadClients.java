package io.objectstreams.it.bench;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many WebSocket connections, each with one model subscription on {@code store.CustomerOrder}, cycling through
 * alice, bob and carol. Messages are recognised by their opening bytes rather than parsed, so the client costs the
 * shared machine as little as possible; per connection it counts events per order, resyncs by reason, and, for
 * the order being timed, each event's arrival time.
 */
final class LoadClients implements AutoCloseable {

    private static final String[] USERS = {"alice", "bob", "carol"};
    private static final int HTTP_CLIENTS = 4;

    private final List<Conn> all = new ArrayList<>();

    static LoadClients open(URL store, int count) throws InterruptedException {
        return open(store, count, null);
    }

    /** Opens {@code count} connections as {@code user}, or cycling through the three users when {@code null}. */
    static LoadClients open(URL store, int count, String user) throws InterruptedException {
        LoadClients clients = new LoadClients();
        URI endpoint = URI.create(store.toString().replaceFirst("^http", "ws")).resolve("streams/ws");
        HttpClient[] http = new HttpClient[HTTP_CLIENTS];
        for (int i = 0; i < http.length; i++) {
            http[i] = HttpClient.newHttpClient();
        }
        for (int from = 0; from < count; from += 200) {
            List<CompletableFuture<WebSocket>> opening = new ArrayList<>();
            List<Conn> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 200); i++) {
                Conn conn = new Conn(user != null ? user : USERS[i % 3]);
                batch.add(conn);
                opening.add(http[i % http.length].newWebSocketBuilder()
                        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                                (conn.user + ":" + conn.user + "-pw").getBytes(StandardCharsets.UTF_8)))
                        .connectTimeout(Duration.ofSeconds(30))
                        .buildAsync(endpoint, conn));
            }
            for (int i = 0; i < batch.size(); i++) {
                Conn conn = batch.get(i);
                conn.socket = opening.get(i).join();
                conn.socket.sendText("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\"}", true).join();
                clients.all.add(conn);
            }
            for (Conn conn : batch) {
                if (!conn.subscribed.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("a connection was not subscribed within 60 s");
                }
            }
        }
        return clients;
    }

    /** Starts a phase: forgets counts, arrivals and resyncs. */
    void reset() {
        all.forEach(Conn::reset);
    }

    /** Waits until every connection that may read alice's orders has every owed event or a resync. */
    void awaitOwed(Map<Long, Long> owed, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!allServed(owed)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(unserved(owed) + " connections did not get every event within " + timeout);
            }
            Thread.sleep(20);
        }
    }

    boolean allServed(Map<Long, Long> owed) {
        return unserved(owed) == 0;
    }

    /** Connections owed events that have neither all of them nor a resync_required. */
    int unserved(Map<Long, Long> owed) {
        int unserved = 0;
        for (Conn conn : all) {
            if (conn.owed() && conn.resyncs.isEmpty()
                    && owed.entrySet().stream().anyMatch(o -> conn.count(o.getKey()) < o.getValue())) {
                unserved++;
            }
        }
        return unserved;
    }

    /** Every (write, owed connection) latency, in ns, for the order whose arrivals are timed. */
    long[] latencies(long order, long[] committedAt) {
        List<Long> latencies = new ArrayList<>();
        for (Conn conn : all) {
            if (conn.owed()) {
                synchronized (conn) {
                    for (int i = 0; i < Math.min(conn.arrivalCount, committedAt.length); i++) {
                        latencies.add(conn.arrivals[i] - committedAt[i]);
                    }
                }
            }
        }
        return latencies.stream().mapToLong(Long::longValue).toArray();
    }

    int size() {
        return all.size();
    }

    long delivered() {
        return all.stream().mapToLong(c -> c.events.get()).sum();
    }

    long lastArrival() {
        return all.stream().mapToLong(c -> c.last).max().orElse(0);
    }

    int owedConnections() {
        return (int) all.stream().filter(Conn::owed).count();
    }

    long bobEvents() {
        return all.stream().filter(c -> c.user.equals("bob")).mapToLong(c -> c.events.get()).sum();
    }

    String resyncs() {
        Map<String, Long> byReason = new TreeMap<>();
        all.forEach(c -> c.resyncs.forEach((reason, n) -> byReason.merge(reason, n.get(), Long::sum)));
        return byReason.isEmpty() ? "none" : byReason.toString();
    }

    @Override
    public void close() {
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (Conn conn : all) {
            if (conn.socket != null) {
                closing.add(conn.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS)
                        .exceptionally(e -> null));
            }
        }
        closing.forEach(CompletableFuture::join);
        all.forEach(c -> c.socket.abort());
    }

    private static final class Conn implements WebSocket.Listener {
        final String user;
        final CountDownLatch subscribed = new CountDownLatch(1);
        final Map<Long, AtomicLong> counts = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> resyncs = new ConcurrentHashMap<>();
        final AtomicLong events = new AtomicLong();
        final StringBuilder partial = new StringBuilder();
        volatile WebSocket socket;
        volatile long last;
        /** Arrival times of the events of the first order seen since the last reset (the timed one). */
        long[] arrivals = new long[64];
        int arrivalCount;
        long timedOrder = -1;

        Conn(String user) {
            this.user = user;
        }

        boolean owed() {
            return !user.equals("bob");
        }

        long count(long order) {
            AtomicLong count = counts.get(order);
            return count == null ? 0 : count.get();
        }

        synchronized void reset() {
            counts.clear();
            resyncs.clear();
            events.set(0);
            last = 0;
            arrivalCount = 0;
            timedOrder = -1;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean complete) {
            long arrival = System.nanoTime();
            partial.append(data);
            if (complete) {
                String text = partial.toString();
                partial.setLength(0);
                if (text.startsWith("{\"type\":\"event\"")) {
                    event(text, arrival);
                } else if (text.contains("\"type\":\"subscribed\"")) {
                    subscribed.countDown();
                } else if (text.contains("\"type\":\"resync_required\"")) {
                    int at = text.indexOf("\"reason\":\"") + 10;
                    resyncs.computeIfAbsent(text.substring(at, text.indexOf('"', at)), r -> new AtomicLong()).incrementAndGet();
                } else {
                    System.out.println("unexpected message on a " + user + " connection: " + text);
                }
            }
            webSocket.request(1);
            return null;
        }

        private void event(String text, long arrival) {
            int subject = text.indexOf("\"pk\":\"", text.indexOf("\"subject\"")) + 6;
            long order = Long.parseLong(text.substring(subject, text.indexOf('"', subject)));
            counts.computeIfAbsent(order, o -> new AtomicLong()).incrementAndGet();
            events.incrementAndGet();
            last = arrival;
            synchronized (this) {
                if (timedOrder < 0) {
                    timedOrder = order;
                }
                if (order == timedOrder) {
                    if (arrivalCount == arrivals.length) {
                        arrivals = java.util.Arrays.copyOf(arrivals, arrivals.length * 2);
                    }
                    arrivals[arrivalCount++] = arrival;
                }
            }
        }
    }
}
