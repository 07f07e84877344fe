package io.objectstreams.it.bench;

import io.objectstreams.it.support.Auth;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Many WebSocket connections (or SSE streams, with {@code -Dbench.transport=sse}), each with one model subscription
 * on {@code store.CustomerOrder}, cycling through alice, bob and carol, over {@link RawWebSockets}. Messages are recognised by their opening bytes rather than
 * parsed, so the client costs the shared machine as little as possible; per connection it counts events per order, resyncs by reason, and, for
 * the order being timed, each event's arrival time; when asked, it also logs every event's cursor
 * ({@link ReceivedCursors}).
 */
final class LoadClients implements AutoCloseable {

    private static final String[] USERS = {"alice", "bob", "carol"};
    private static final int SELECTOR_THREADS = 2;
    private static final byte[] EVENT = "{\"type\":\"event\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUBJECT_PK = "\"subject\":{\"model\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CURSOR = "\"cursor\":".getBytes(StandardCharsets.US_ASCII);

    private final List<Conn> all = new ArrayList<>();
    private RawWebSockets sockets;

    static LoadClients open(URL store, int count) throws InterruptedException {
        return open(store, count, null);
    }

    /**
     * The transport the load clients use: {@code websocket} (the default) or {@code sse}
     * ({@code -Dbench.transport}).
     */
    static final String TRANSPORT = System.getProperty("bench.transport", "websocket");

    /** Opens {@code count} connections as {@code user}, or cycling through the three users when {@code null}. */
    static LoadClients open(URL store, int count, String user) throws InterruptedException {
        return open(store, count, i -> user != null ? user : USERS[i % 3], "alice", MODEL_SUBSCRIBE);
    }

    /** One model subscription on the demo's orders. */
    static final String MODEL_SUBSCRIBE = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\"}";

    /**
     * Opens {@code count} connections, connection {@code i} as {@code userOf(i)} (a demo user, or a load customer
     * {@code uN}, whose password is {@code load-pw}), each sending {@code subscribe}. A connection is owed the events
     * of {@code writer}'s orders when it is the writer's or staff's.
     */
    static LoadClients open(URL store, int count, IntFunction<String> userOf, String writer,
                            String subscribe) throws InterruptedException {
        return open(store, count, userOf, writer, subscribe, false);
    }

    /**
     * As above; with {@code logCursors}, each connection also logs what it receives by cursor ({@link #received()}),
     * which costs the client a scan of each event's cursor and 16 bytes per event.
     */
    static LoadClients open(URL store, int count, IntFunction<String> userOf, String writer,
                            String subscribe, boolean logCursors) throws InterruptedException {
        LoadClients clients = new LoadClients();
        clients.sockets = new RawWebSockets(SELECTOR_THREADS);
        boolean sse = TRANSPORT.equals("sse");
        URI endpoint = sse ? URI.create(store.toString()).resolve("streams/subscribe/store.CustomerOrder?kind=model")
                : URI.create(store.toString().replaceFirst("^http", "ws")).resolve("streams/ws");
        for (int from = 0; from < count; from += 200) {
            List<Conn> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + 200); i++) {
                String user = userOf.apply(i);
                Conn conn = new Conn(user, user.equals(writer) || user.equals("carol"),
                        logCursors ? new ReceivedCursors(user, i) : null);
                String authorization = Auth.basic(user);
                conn.socket = sse ? clients.sockets.connectSse(endpoint, authorization, conn)
                        : clients.sockets.connect(endpoint, authorization, subscribe, conn);
                batch.add(conn);
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

    /**
     * Connections owed events that have neither all of them nor a resync_required. An SSE stream the server ended
     * is not counted: a browser's EventSource reconnects by itself with Last-Event-ID and is replayed or resynced
     * (this client does not reconnect); such streams are counted in {@link #resyncs()}.
     */
    int unserved(Map<Long, Long> owed) {
        int unserved = 0;
        for (Conn conn : all) {
            if (conn.owed() && conn.resyncs.isEmpty() && !(conn.ended && TRANSPORT.equals("sse"))
                    && owed.entrySet().stream().anyMatch(o -> conn.count(o.getKey()) < o.getValue())) {
                unserved++;
            }
        }
        return unserved;
    }

    /** Every (write, owed connection) latency, in ns, for the order whose arrivals are timed. */
    long[] latencies(long order, long[] committedAt) {
        return latencies(order, committedAt, 0, committedAt.length);
    }

    /** The latencies of writes {@code from} (inclusive) to {@code to} (exclusive) only, for every owed connection. */
    long[] latencies(long order, long[] committedAt, int from, int to) {
        List<Long> latencies = new ArrayList<>();
        for (Conn conn : all) {
            if (conn.owed()) {
                synchronized (conn) {
                    for (int i = from; i < Math.min(conn.arrivalCount, to); i++) {
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

    /** Each connection's log by cursor, in the order opened; only for connections opened with {@code logCursors}. */
    List<ReceivedCursors.Log> received() {
        return all.stream().filter(c -> c.log != null).map(c -> c.log.log()).toList();
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

    /** Events that reached connections owed none: bob's, or other customers' (a leak). */
    long bobEvents() {
        return all.stream().filter(c -> !c.owed).mapToLong(c -> c.events.get()).sum();
    }

    String resyncs() {
        Map<String, Long> byReason = new TreeMap<>();
        all.forEach(c -> c.resyncs.forEach((reason, n) -> byReason.merge(reason, n.get(), Long::sum)));
        long endedWithout = all.stream().filter(c -> c.ended && c.resyncs.isEmpty()).count();
        String resyncs = byReason.isEmpty() ? "none" : byReason.toString();
        return endedWithout == 0 ? resyncs : resyncs + ", " + endedWithout + " ended by the server without one";
    }

    @Override
    public void close() {
        all.forEach(c -> c.socket.close());
        sockets.close();
    }

    /** Whether {@code pattern} occurs in {@code b} at {@code at}. */
    private static boolean at(byte[] b, int at, int end, byte[] pattern) {
        if (at + pattern.length > end) {
            return false;
        }
        for (int i = 0; i < pattern.length; i++) {
            if (b[at + i] != pattern[i]) {
                return false;
            }
        }
        return true;
    }

    private static final class Conn implements RawWebSockets.Listener {
        final String user;
        final CountDownLatch subscribed = new CountDownLatch(1);
        final Map<Long, AtomicLong> counts = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> resyncs = new ConcurrentHashMap<>();
        final AtomicLong events = new AtomicLong();
        volatile RawWebSockets.Connection socket;
        volatile long last;
        volatile boolean ended;
        /** Arrival times of the events of the first order seen since the last reset (the timed one). */
        long[] arrivals = new long[64];
        int arrivalCount;
        long timedOrder = -1;

        final boolean owed;
        /** What it received by cursor, or {@code null} when not asked for. */
        final ReceivedCursors log;

        Conn(String user, boolean owed, ReceivedCursors log) {
            this.user = user;
            this.owed = owed;
            this.log = log;
        }

        boolean owed() {
            return owed;
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
        public void onClosed() {
            ended = true;
            if (log != null) {
                log.ended();
            }
        }

        @Override
        public void onText(byte[] b, int offset, int length, long arrival) {
            int end = offset + length;
            if (at(b, offset, end, EVENT)) {
                event(b, offset, end, arrival);
                return;
            }
            String text = new String(b, offset, length, StandardCharsets.UTF_8);
            if (text.contains("\"type\":\"subscribed\"")) {
                if (log != null) {
                    log.subscribed(text);
                }
                subscribed.countDown();
            } else if (text.contains("\"type\":\"resync_required\"")) {
                if (log != null) {
                    log.resync(text);
                }
                int reason = text.indexOf("\"reason\":\"") + 10;
                resyncs.computeIfAbsent(text.substring(reason, text.indexOf('"', reason)), r -> new AtomicLong())
                        .incrementAndGet();
            } else {
                System.out.println("unexpected message on a " + user + " connection: " + text);
            }
        }

        /**
         * Reads the subject's pk straight from the bytes: {@code "subject":{"model":"...","pk":"123"}}; and, when
         * logging, the {@code "cursor":N} before it.
         */
        private void event(byte[] b, int offset, int end, long arrival) {
            int i = offset + EVENT.length;
            if (log != null) {
                while (i < end && !at(b, i, end, CURSOR)) {
                    i++;
                }
                long cursor = 0;
                for (i += CURSOR.length; i < end && b[i] >= '0' && b[i] <= '9'; i++) {
                    cursor = cursor * 10 + (b[i] - '0');
                }
                log.event(cursor, arrival);
            }
            while (i < end && !at(b, i, end, SUBJECT_PK)) {
                i++;
            }
            i += SUBJECT_PK.length + 1;
            while (i < end && b[i] != '"') {
                i++;
            }
            i += 8; // ","pk":"
            long order = 0;
            while (i < end && b[i] != '"') {
                order = order * 10 + (b[i++] - '0');
            }
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
