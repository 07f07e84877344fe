package io.objectstreams.it.bench;

import io.objectstreams.it.support.Auth;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.PayaraMicroProcess;
import io.objectstreams.it.support.Ports;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code mvn -pl src-it -Pbench process-test-classes exec:java@reconnect-storm}: every client reconnects at once with
 * its cursor, as after a deploy or a network blip, on each server with the demo's heap.
 *
 * <p>The writer changes {@code bench.storm.changes} times {@code bench.storm.orders} of its orders; then
 * {@code bench.storm.clients} WebSocket clients connect within {@code bench.storm.spread}, each subscribing to the
 * orders' model from the cursor read before the changes. A client is served when it has been told to resync, or,
 * owed the orders (the writer's and staff's connections), has a replayed event for each, or, owed nothing, has its
 * {@code subscribed}; an {@code error} or a refused handshake is counted by its name, and a client with no answer
 * within {@code bench.storm.timeout} is counted unanswered. Meanwhile readiness is asked every 100 ms and every
 * answer's time is kept. A warm-up storm of a tenth of the clients comes first, on the same server. Prints figures;
 * asserts nothing about speed.
 */
public final class ReconnectStormBenchmark {

    private static final List<String> SERVERS = List.of(System.getProperty("bench.servers", "payara-micro,wildfly").split(","));
    private static final int CLIENTS = Integer.getInteger("bench.storm.clients", 5_000);
    private static final Duration SPREAD = Duration.ofSeconds(Integer.getInteger("bench.storm.spread", 5));
    private static final int ORDERS = Integer.getInteger("bench.storm.orders", 20);
    private static final int CHANGES = Integer.getInteger("bench.storm.changes", 100);
    private static final Duration TIMEOUT = Duration.ofSeconds(Integer.getInteger("bench.storm.timeout", 60));
    /** {@code three} cycles alice, bob and carol (alice writes); {@code distinct} gives each client its own u1 ... uN. */
    private static final String VIEWERS = System.getProperty("bench.viewers", "three");
    /**
     * Whether a storm of a tenth of the clients comes first on the same server ({@code bench.storm.warm-up}, true);
     * {@code false} storms a freshly started server, as after a restart or a deploy.
     */
    private static final boolean WARM_UP = Boolean.parseBoolean(System.getProperty("bench.storm.warm-up", "true"));
    private static final int CONNECTOR_THREADS = 64;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ReconnectStormBenchmark() {
    }

    /** One storm's figures; times in ms from the storm's start unless named otherwise. */
    record Storm(String server, int clients, long lastServedMs, double[] servedMs, Map<String, Integer> outcomes,
                 double[] readinessMs, int readinessProbes, int readinessOverOneSecond, long maxHeapMb, long gcMs,
                 long fullGcs, long serverCpuMs) {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        List<Storm> storms = new ArrayList<>();
        try {
            for (String server : SERVERS) {
                storms.addAll(run(server));
            }
        } finally {
            TestDatabase.stop();
        }
        System.out.println();
        System.out.println("| server | viewers | clients within " + SPREAD.toSeconds() + " s | last served s | served p50 ms"
                + " | p99 ms | max ms | outcomes | readiness p50 ms | p99 ms | max ms | probes over 1 s | max heap MB | GC ms"
                + " | full GCs | server CPU s |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Storm s : storms) {
            System.out.printf("| %s | %s | %d | %.1f | %.0f | %.0f | %.0f | %s | %.0f | %.0f | %.0f | %d of %d | %d | %d"
                    + " | %d | %.1f |%n", s.server(), VIEWERS, s.clients(), s.lastServedMs() / 1000.0, s.servedMs()[0],
                    s.servedMs()[1], s.servedMs()[2], s.outcomes(), s.readinessMs()[0], s.readinessMs()[1],
                    s.readinessMs()[2], s.readinessOverOneSecond(), s.readinessProbes(), s.maxHeapMb(), s.gcMs(), s.fullGcs(), s.serverCpuMs() / 1000.0);
        }
    }

    private static List<Storm> run(String kind) throws Exception {
        File archive = new File(System.getProperty(kind.equals("wildfly") ? "streams.it.ear" : "streams.it.war"));
        Map<String, String> env = new HashMap<>(Map.of("STREAMS_CONNECTIONS_MAX_PER_PRINCIPAL", "100000",
                "STREAMS_CONNECTIONS_MAX", "100000", "STREAMS_SUBSCRIPTIONS_MAX_SCOPES", "100000",
                "DEMO_LOAD_CUSTOMERS", "100000"));
        if (!System.getProperty("bench.server.options", "").isBlank()) {
            env.put("JAVA_TOOL_OPTIONS", System.getProperty("bench.server.options"));
        }
        System.out.printf("%n== %s, reconnect storm of %d clients ==%n", kind, CLIENTS);
        try (ServerProcess server = kind.equals("wildfly")
                ? ServerProcess.start("wildfly", "storm", archive, env)
                : PayaraMicroProcess.start("storm", Ports.free(), archive, env)) {
            server.awaitStarted(Duration.ofMinutes(3));
            Health.awaitListenerReady(server.healthRoot(), true);
            URL store = server.deployment();
            String writer = VIEWERS.equals("distinct") ? "u1" : "alice";
            StoreClient writes = StoreClient.as(writer, store);
            long[] orders = new long[ORDERS];
            for (int i = 0; i < ORDERS; i++) {
                orders[i] = writes.createOrder("{\"status\":\"open\",\"total\":" + (i + 1) + "}");
            }
            List<Storm> storms = new ArrayList<>();
            if (WARM_UP) {
                storms.add(storm(server, store, writer, orders, Math.max(1, CLIENTS / 10), kind + " warm-up"));
            }
            storms.add(storm(server, store, writer, orders, CLIENTS, kind));
            return storms;
        }
    }

    /** Misses {@link #CHANGES} changes, then reconnects {@code clients} clients within {@link #SPREAD}. */
    private static Storm storm(ServerProcess server, URL store, String writer, long[] orders, int clients, String name)
            throws Exception {
        StoreClient writes = StoreClient.as(writer, store);
        long from = Long.parseLong(writes.get("api/orders").header("Streams-Cursor"));
        for (int i = 0; i < CHANGES; i++) {
            int status = writes.patch("api/orders/" + orders[i % orders.length], "{\"note\":\"storm " + i + "\"}").status();
            if (status != 200) {
                throw new IllegalStateException("write failed with HTTP " + status);
            }
        }
        long through = Long.parseLong(writes.get("api/orders").header("Streams-Cursor"));
        awaitDelivered(server.healthRoot(), through);
        Set<Long> owedOrders = new java.util.HashSet<>();
        Arrays.stream(orders).forEach(owedOrders::add);
        String subscribe = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\",\"cursor\":" + from + "}";
        URI endpoint = URI.create(store.toString().replaceFirst("^http", "ws")).resolve("streams/ws");

        List<Client> all = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String user = VIEWERS.equals("distinct") ? "u" + (i + 1) : List.of("alice", "bob", "carol").get(i % 3);
            all.add(new Client(user, user.equals(writer) || user.equals("carol") ? owedOrders : Set.of()));
        }
        TestDatabase.resetStatementCounts();
        ServerStats before = ServerStats.read(server.jvmPid());
        long cpuBefore = ServerStats.cpuMillis(server.jvmPid());
        long clientCpuBefore = ServerStats.cpuMillis(ProcessHandle.current().pid());
        Readiness readiness = new Readiness(server.healthRoot());
        Thread probe = new Thread(readiness, "readiness-probe");
        long maxHeap = 0;
        try (RawWebSockets sockets = new RawWebSockets(2)) {
            ExecutorService connectors = Executors.newFixedThreadPool(CONNECTOR_THREADS);
            long start = System.nanoTime();
            probe.start();
            for (int i = 0; i < clients; i++) {
                Client client = all.get(i);
                client.due = start + SPREAD.toNanos() * i / clients;
                connectors.submit(() -> client.connect(sockets, endpoint, subscribe));
            }
            long deadline = start + SPREAD.toNanos() + TIMEOUT.toNanos();
            while (System.nanoTime() < deadline && all.stream().anyMatch(c -> c.outcome == null)) {
                maxHeap = Math.max(maxHeap, ServerStats.read(server.jvmPid()).heapUsed());
                Thread.sleep(250);
            }
            connectors.shutdownNow();
            // Readiness a little past the storm too: the work a storm leaves behind must not stall it either.
            Thread.sleep(1_000);
            readiness.stop();
            probe.join();
            ServerStats after = ServerStats.read(server.jvmPid());
            long cpu = ServerStats.cpuMillis(server.jvmPid()) - cpuBefore;
            long clientCpu = ServerStats.cpuMillis(ProcessHandle.current().pid()) - clientCpuBefore;
            Map<String, Integer> outcomes = new TreeMap<>();
            long[] served = all.stream().filter(c -> c.servedAt != 0).mapToLong(c -> c.servedAt - c.due).toArray();
            long last = all.stream().filter(c -> c.servedAt != 0).mapToLong(c -> c.servedAt - start).max().orElse(0);
            all.forEach(c -> outcomes.merge(c.outcome == null ? "unanswered" : c.outcome, 1, Integer::sum));
            all.forEach(Client::close);
            double[] probes = readiness.millis();
            Storm storm = new Storm(name, clients, last / 1_000_000,
                    new double[] {FanOutLoadBenchmark.pct(served, 50), FanOutLoadBenchmark.pct(served, 99),
                        FanOutLoadBenchmark.pct(served, 100)},
                    outcomes, probes, readiness.count(), readiness.overOneSecond(), maxHeap >> 20,
                    after.gcMillis() - before.gcMillis(), after.fullGcs() - before.fullGcs(), cpu);
            printStatements(clients);
            System.out.printf("  CPU: server %.1f s, these clients %.1f s%n", cpu / 1000.0, clientCpu / 1000.0);
            System.out.printf("%s: last client served %.1f s after the storm began; each client served p50 %.0f ms p99 %.0f ms"
                    + " max %.0f ms after its connect; %s; readiness p50 %.0f ms p99 %.0f ms max %.0f ms, %d of %d probes"
                    + " over 1 s%n", name, last / 1e9, storm.servedMs()[0], storm.servedMs()[1], storm.servedMs()[2],
                    outcomes, probes[0], probes[1], probes[2],
                    readiness.overOneSecond(), readiness.count());
            return storm;
        }
    }

    /** What the database ran during the storm: per reconnecting client, the statements that ran most. */
    private static void printStatements(int clients) throws java.sql.SQLException {
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT calls, total_exec_time, left(regexp_replace(query, '\\s+', ' ',"
                     + " 'g'), 90) FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'"
                     + " ORDER BY calls DESC LIMIT 8")) {
            long calls = 0;
            double ms = 0;
            StringBuilder top = new StringBuilder();
            while (rs.next()) {
                calls += rs.getLong(1);
                ms += rs.getDouble(2);
                top.append(String.format("%n    %.2f per client, %.3f ms each: %s", rs.getLong(1) / (double) clients,
                        rs.getDouble(2) / Math.max(1, rs.getLong(1)), rs.getString(3)));
            }
            System.out.printf("  database: %.1f statements per client (the 8 most frequent), %.0f ms executing in all:%s%n",
                    calls / (double) clients, ms, top);
        }
    }

    /** Waits until the server has fanned out through {@code cursor}, so that the storm's replays include it all. */
    private static void awaitDelivered(URI healthRoot, long cursor) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Health.listener(healthRoot, "ready").number("lastDeliveredCursor") < cursor) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server did not deliver through " + cursor + " within 30 s");
            }
            Thread.sleep(50);
        }
    }

    /** Asks readiness every 100 ms (a new request when the last one has answered) and keeps each answer's time. */
    private static final class Readiness implements Runnable {
        private final URI ready;
        private final List<Long> nanos = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);

        Readiness(URI healthRoot) {
            this.ready = healthRoot.resolve("/health/ready");
        }

        @Override
        public void run() {
            while (running.get()) {
                long asked = System.nanoTime();
                try {
                    HTTP.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.discarding());
                } catch (Exception failed) {
                    // counted by its time: a probe that failed or timed out took at least that long
                }
                long took = System.nanoTime() - asked;
                synchronized (nanos) {
                    nanos.add(took);
                }
                long sleep = TimeUnit.MILLISECONDS.toNanos(100) - took;
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep / 1_000_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        void stop() {
            running.set(false);
        }

        int count() {
            synchronized (nanos) {
                return nanos.size();
            }
        }

        int overOneSecond() {
            synchronized (nanos) {
                return (int) nanos.stream().filter(n -> n > TimeUnit.SECONDS.toNanos(1)).count();
            }
        }

        double[] millis() {
            long[] all;
            synchronized (nanos) {
                all = nanos.stream().mapToLong(Long::longValue).toArray();
            }
            return new double[] {FanOutLoadBenchmark.pct(all, 50), FanOutLoadBenchmark.pct(all, 99),
                    FanOutLoadBenchmark.pct(all, 100)};
        }
    }

    /** One reconnecting client: its outcome, and when it was served (nanoTime, 0 until then). */
    private static final class Client implements RawWebSockets.Listener {
        private static final byte[] EVENT = "{\"type\":\"event\"".getBytes(StandardCharsets.US_ASCII);
        final String user;
        final Set<Long> owed;
        final Set<Long> replayed = ConcurrentHashMap.newKeySet();
        volatile long due;
        volatile long servedAt;
        volatile String outcome;
        volatile RawWebSockets.Connection socket;

        Client(String user, Set<Long> owed) {
            this.user = user;
            this.owed = owed;
        }

        void connect(RawWebSockets sockets, URI endpoint, String subscribe) {
            try {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                String authorization = Auth.basic(user);
                socket = sockets.connect(endpoint, authorization, subscribe, this);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException refused) {
                end("handshake failed: " + refused.getMessage());
            }
        }

        private synchronized void end(String what) {
            if (outcome == null) {
                outcome = what;
                servedAt = what.equals("replayed") || what.equals("subscribed") || what.startsWith("resync") ? System.nanoTime() : 0;
            }
        }

        @Override
        public void onText(byte[] b, int offset, int length, long arrival) {
            String text = new String(b, offset, length, StandardCharsets.UTF_8);
            if (text.startsWith(new String(EVENT, StandardCharsets.US_ASCII))) {
                int pk = text.indexOf("\"pk\":\"") + 6;
                replayed.add(Long.parseLong(text.substring(pk, text.indexOf('"', pk))));
                if (replayed.containsAll(owed)) {
                    end("replayed");
                }
            } else if (text.contains("\"type\":\"subscribed\"")) {
                if (owed.isEmpty()) {
                    end("subscribed");
                }
            } else if (text.contains("\"type\":\"resync_required\"")) {
                int reason = text.indexOf("\"reason\":\"") + 10;
                end("resync " + text.substring(reason, text.indexOf('"', reason)));
            } else if (text.contains("\"type\":\"error\"")) {
                int code = text.indexOf("\"code\":\"") + 8;
                end("error " + text.substring(code, text.indexOf('"', code)));
            }
        }

        @Override
        public void onClosed() {
            end("closed before served");
        }

        void close() {
            if (socket != null) {
                socket.close();
            }
        }
    }
}
