package io.objectstreams.it.bench;

import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.PayaraMicroProcess;
import io.objectstreams.it.support.Ports;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.io.File;
import java.net.URL;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGConnection;

/**
 * {@code mvn -pl src-it -Pbench package}: fan-out under load, as a new user would try it, on each server with the
 * demo's heap ({@code -Xmx512m -XX:+UseSerialGC}).
 *
 * <p>N WebSocket connections, a third each for alice, bob and carol, each with one model subscription on
 * {@code store.CustomerOrder}; alice owns every order written, so each write is owed to two thirds of the
 * connections and to none of bob's. Phases, each on the same connections:
 * <ol>
 *   <li>sequential latency: one writer, pausing 20 ms between writes;</li>
 *   <li>capacity: 4 writers at a combined {@code bench.rate} writes/s for {@code bench.seconds};</li>
 *   <li>overload: 8 writers as fast as they can for {@code bench.seconds}, then a fresh subscription.</li>
 * </ol>
 * Reports deliveries/s, drain time, latency, health response time, heap and GC of the server (jstat), and checks
 * that every connection got every event or a {@code resync_required}, and that bob got nothing. Prints figures and
 * writes SVG plots to {@code bench.output}; asserts nothing about speed.
 */
public final class FanOutLoadBenchmark {

    /** Three users hold every connection here, more than streams.connections.max-per-principal allows by default. */
    private static final Map<String, String> LOAD_LIMITS = Map.of("STREAMS_CONNECTIONS_MAX_PER_PRINCIPAL", "10000",
            "STREAMS_CONNECTIONS_MAX", "100000", "STREAMS_SUBSCRIPTIONS_MAX_SCOPES", "100000");


    private static final List<String> SERVERS = List.of(System.getProperty("bench.servers", "payara-micro,wildfly").split(","));
    /** Connection counts for the load phases; empty ({@code -Dbench.connections=}) runs only the idle phase. */
    private static final int[] CONNECTIONS = Arrays.stream(System.getProperty("bench.connections", "1000,5000").split(","))
            .filter(c -> !c.isBlank()).mapToInt(Integer::parseInt).toArray();
    private static final int RATE = Integer.getInteger("bench.rate", 75);
    private static final Duration LOAD_TIME = Duration.ofSeconds(Integer.getInteger("bench.seconds", 20));
    private static final int LATENCY_WRITES = Integer.getInteger("bench.latency.writes", 200);
    /** Idle connections for the heap-per-connection measurement; 0 skips it. */
    private static final int IDLE_CONNECTIONS = Integer.getInteger("bench.idle", 10_000);
    /** How long the idle connections are then held, pinged every {@code bench.idle.ping}, before they are counted. */
    private static final int IDLE_HOLD_SECONDS = Integer.getInteger("bench.idle.hold", 60);
    private static final String IDLE_PING = System.getProperty("bench.idle.ping", "2s");
    /** With {@code -Dbench.idle.histogram=true}, prints which classes the idle connections left on the heap. */
    private static final boolean HISTOGRAM = Boolean.getBoolean("bench.idle.histogram");
    private static final Path OUTPUT = Path.of(System.getProperty("bench.output", "../docs/benchmarks"));
    /**
     * Who holds the connections ({@code -Dbench.viewers}, a list run in turn): {@code three} (the default) cycles
     * alice, bob and carol, and alice writes; {@code distinct} gives each connection its own load customer u1 ... uN
     * (the demo's {@code demo.load-customers}), and u1 writes, so every connection is a distinct viewer and only u1's
     * is owed the events.
     */
    private static final List<String> VIEWERS = List.of(System.getProperty("bench.viewers", "three").split(","));
    /** What each connection subscribes to ({@code -Dbench.subscription}, a list): {@code model}, or {@code status} (open orders). */
    private static final List<String> SUBSCRIPTIONS = List.of(System.getProperty("bench.subscription", "model").split(","));
    private static final String STATUS_SUBSCRIBE = "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":"
            + "\"store.CustomerOrder\",\"filter\":{\"status\":\"open\"}}";
    /**
     * The (viewers, subscription) pairs to run, as {@code viewers/subscription} ({@code -Dbench.modes}, a list, e.g.
     * {@code three/model,distinct/model,distinct/status}); by default every pair of the two lists above.
     */
    private static final List<String> MODES = System.getProperty("bench.modes") != null
            ? List.of(System.getProperty("bench.modes").split(","))
            : VIEWERS.stream().flatMap(v -> SUBSCRIPTIONS.stream().map(s -> v + "/" + s)).toList();
    /** The mode of the run in progress (one at a time): see {@link #VIEWERS} and {@link #SUBSCRIPTIONS}. */
    private static boolean DISTINCT;
    private static String SUBSCRIBE = LoadClients.MODEL_SUBSCRIBE;
    private static String WRITER = "alice";

    private FanOutLoadBenchmark() {
    }

    /** One run's figures. */
    record Result(String server, int connections, double notifyRttMs, double[] latencyMs, LoadFigures capacity,
                  LoadFigures overload, long freshSubscriptionMs, double queriesPerWrite, String mode) {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        List<Result> results = new ArrayList<>();
        Map<String, double[]> idle = new LinkedHashMap<>();
        try {
            for (String server : SERVERS) {
                for (String mode : MODES) {
                    DISTINCT = mode.startsWith("distinct/");
                    WRITER = DISTINCT ? "u1" : "alice";
                    SUBSCRIBE = mode.endsWith("/status") ? STATUS_SUBSCRIBE : LoadClients.MODEL_SUBSCRIBE;
                    for (int connections : CONNECTIONS) {
                        results.add(run(server, connections));
                    }
                }
                if (IDLE_CONNECTIONS > 0) {
                    idle.put(server, idleHeap(server, IDLE_CONNECTIONS));
                }
            }
        } finally {
            TestDatabase.stop();
        }
        print(results);
        if (!idle.isEmpty()) {
            System.out.println();
            System.out.println("| server | idle connections | heap after full GC before, MB | after, MB | KB per connection |");
            System.out.println("| --- | --- | --- | --- | --- |");
            idle.forEach((server, f) -> System.out.printf("| %s | %d | %.0f | %.0f | %.1f |%n", server, IDLE_CONNECTIONS,
                    f[0] / 1048576, f[1] / 1048576, (f[1] - f[0]) / 1024 / IDLE_CONNECTIONS));
        }
        if (MODES.equals(List.of("three/model"))) {
            LoadPlots.write(OUTPUT, results);
        } else {
            LoadPlots.writeViewers(OUTPUT, results);
        }
    }

    private static Result run(String kind, int connections) throws Exception {
        File archive = new File(System.getProperty(kind.equals("wildfly") ? "streams.it.ear" : "streams.it.war"));
        System.out.printf("%n== %s, %d connections ==%n", kind, connections);
        Map<String, String> env = serverEnvironment();
        try (ServerProcess server = kind.equals("wildfly")
                ? ServerProcess.start("wildfly", "load-" + connections, archive, env)
                : PayaraMicroProcess.start("load-" + connections, Ports.free(), archive, env)) {
            server.awaitStarted(Duration.ofMinutes(3));
            Health.awaitListenerReady(server.healthRoot(), true);
            URL store = server.deployment();
            double rtt = notifyRoundTripMillis();
            StoreClient writer = StoreClient.as(WRITER, store);
            long[] orders = new long[8];
            for (int i = 0; i < orders.length; i++) {
                orders[i] = writer.createOrder("{\"status\":\"open\",\"total\":" + (i + 1) + "}");
            }
            try (LoadClients clients = DISTINCT
                    ? LoadClients.open(store, connections, i -> "u" + (i + 1), WRITER, SUBSCRIBE)
                    : LoadClients.open(store, connections, i -> List.of("alice", "bob", "carol").get(i % 3), WRITER, SUBSCRIBE)) {
                System.out.printf("%d connections open (%s viewers, %s); server heap after GC: %s%n", connections,
                        DISTINCT ? "distinct" : "three", SUBSCRIBE, ServerStats.heapAfterFullGc(server.jvmPid()));
                TestDatabase.resetStatementCounts();
                double[] latency = sequentialLatency(store, clients, orders[0]);
                // The visibility queries of fan-out name their subjects with IN; the REST API's own reads by id do not.
                double queriesPerWrite = TestDatabase.statementCalls("select%from store_order%in (%") / (double) LATENCY_WRITES;
                System.out.printf("sequential write->event ms: p50 %.1f p95 %.1f p99 %.1f max %.1f (NOTIFY round trip %.2f ms);"
                        + " visibility queries per write %.2f%n", latency[0], latency[1], latency[2], latency[3], rtt,
                        queriesPerWrite);
                LoadFigures capacity = load(server, store, clients, Arrays.copyOf(orders, 4), RATE);
                System.out.println("capacity: " + capacity);
                LoadFigures overload = load(server, store, clients, orders, 0);
                System.out.println("overload: " + overload);
                long fresh = freshSubscription(store, orders[0]);
                System.out.printf("fresh subscription after overload: event in %d ms%n", fresh);
                return new Result(kind, connections, rtt, latency, capacity, overload, fresh, queriesPerWrite,
                        (DISTINCT ? "distinct" : "three") + " viewers, " + (SUBSCRIBE.equals(STATUS_SUBSCRIBE) ? "status filter" : "model"));
            }
        }
    }

    /**
     * The load's limits, and -Dbench.server.options as the server's JVM options (JAVA_TOOL_OPTIONS), e.g. a profiler;
     * a new map each time (ScaleOutBenchmark's servers have the same).
     */
    static Map<String, String> serverEnvironment() {
        Map<String, String> env = new java.util.HashMap<>(LOAD_LIMITS);
        // The demo's load population, for -Dbench.viewers=distinct.
        env.put("DEMO_LOAD_CUSTOMERS", "100000");
        if (!System.getProperty("bench.server.options", "").isBlank()) {
            env.put("JAVA_TOOL_OPTIONS", System.getProperty("bench.server.options"));
        }
        return env;
    }

    /** Retained heap before and after opening {@code count} connections, each with one model subscription. */
    private static double[] idleHeap(String kind, int count) throws Exception {
        File archive = new File(System.getProperty(kind.equals("wildfly") ? "streams.it.ear" : "streams.it.war"));
        System.out.printf("%n== %s, %d idle connections ==%n", kind, count);
        Map<String, String> env = serverEnvironment();
        env.put("STREAMS_WEBSOCKET_PING_INTERVAL", IDLE_PING);
        try (ServerProcess server = kind.equals("wildfly")
                ? ServerProcess.start("wildfly", "idle", archive, env)
                : PayaraMicroProcess.start("idle", Ports.free(), archive, env)) {
            server.awaitStarted(Duration.ofMinutes(3));
            Health.awaitListenerReady(server.healthRoot(), true);
            try (LoadClients warm = LoadClients.open(server.deployment(), 30)) {
                System.out.println("warmed up with " + warm.size() + " connections");
            }
            Thread.sleep(2_000);
            long before = ServerStats.retainedHeap(server.jvmPid());
            Map<String, long[]> classesBefore = HISTOGRAM ? ServerStats.classHistogram(server.jvmPid()) : null;
            try (LoadClients clients = LoadClients.open(server.deployment(), count)) {
                long after = ServerStats.retainedHeap(server.jvmPid());
                if (HISTOGRAM) {
                    ServerStats.printGrowth(classesBefore, ServerStats.classHistogram(server.jvmPid()), count, 40);
                }
                System.out.printf("%d connections: retained heap %d MB -> %d MB%n", clients.size(), before >> 20, after >> 20);
                if (IDLE_HOLD_SECONDS > 0) {
                    holdPinged(server, clients.size());
                }
                return new double[] {before, after};
            }
        }
    }

    /**
     * Holds the idle connections while the server pings each every {@code bench.idle.ping}: none may be closed as
     * unresponsive (the clients answer pings), and the server CPU the pings cost is printed.
     */
    private static void holdPinged(ServerProcess server, int connections) throws Exception {
        long cpuBefore = ServerStats.cpuMillis(server.jvmPid());
        long start = System.nanoTime();
        ServerStats.profileIfAsked(server.jvmPid(), "idle-pinged-" + connections, Duration.ofSeconds(IDLE_HOLD_SECONDS));
        Thread.sleep(IDLE_HOLD_SECONDS * 1000L);
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = ServerStats.cpuMillis(server.jvmPid()) - cpuBefore;
        jakarta.json.JsonObject webSocket = StoreClient.as("carol", server.deployment()).get("streams/admin/status").object()
                .getJsonObject("transports").getJsonObject("webSocket");
        double pings = connections * seconds / java.time.Duration.parse("PT" + IDLE_PING.toUpperCase()).toMillis() * 1000;
        System.out.printf("held %.0f s, pinged every %s (about %.0f pings): sessions %d of %d, ended %s, server CPU %d ms"
                + " (%.1f%% of one core, %.1f µs per ping)%n", seconds, IDLE_PING, pings,
                webSocket.getInt("sessions"), connections, webSocket.getJsonObject("endedByCause"), cpu,
                100.0 * cpu / (seconds * 1000), cpu * 1000.0 / pings);
    }

    /** One writer, 20 ms between writes: every (write, owed connection) latency, as p50/p95/p99/max in ms. */
    /** The sequential phase's first writes, reported apart from the rest (see below). */
    private static final int COLD_WRITES = 10;

    private static double[] sequentialLatency(URL store, LoadClients clients, long order) throws Exception {
        StoreClient alice = StoreClient.as(WRITER, store);
        clients.reset();
        long[] committedAt = new long[LATENCY_WRITES];
        for (int i = 0; i < LATENCY_WRITES; i++) {
            patch(alice, order, i);
            committedAt[i] = System.nanoTime();
            Thread.sleep(20);
        }
        clients.awaitOwed(Map.of(order, (long) LATENCY_WRITES), Duration.ofSeconds(60));
        long[] latencies = clients.latencies(order, committedAt);
        // The phase starts right after the connections open, on a server whose fan-out path is still cold: its
        // first writes make the p99 of 200. Shown apart, so an A/B of the code is not an A/B of the JIT's warm-up.
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < COLD_WRITES; i++) {
            first.append(' ').append(String.format("%.0f", pct(clients.latencies(order, committedAt, i, i + 1), 100)));
        }
        long[] warm = clients.latencies(order, committedAt, 2 * COLD_WRITES, LATENCY_WRITES);
        System.out.printf("  slowest arrival of each of the first %d writes ms:%s; writes %d-%d: p50 %.1f p95 %.1f"
                + " p99 %.1f max %.1f%n", COLD_WRITES, first, 2 * COLD_WRITES + 1, LATENCY_WRITES, pct(warm, 50),
                pct(warm, 95), pct(warm, 99), pct(warm, 100));
        return new double[] {pct(latencies, 50), pct(latencies, 95), pct(latencies, 99), pct(latencies, 100)};
    }

    /** Writers on the given orders, paced to {@code rate} writes/s together (0: as fast as they can). */
    private static LoadFigures load(ServerProcess server, URL store, LoadClients clients, long[] orders, int rate)
            throws Exception {
        clients.reset();
        ServerStats before = ServerStats.read(server.jvmPid());
        long serverCpuBefore = ServerStats.cpuMillis(server.jvmPid());
        long clientCpuBefore = ServerStats.cpuMillis(ProcessHandle.current().pid());
        ServerStats.profileIfAsked(server.jvmPid(), (rate == 0 ? "overload" : "capacity") + "-" + clients.size(),
                LOAD_TIME);
        Map<Long, AtomicLong> written = new LinkedHashMap<>();
        for (long order : orders) {
            written.put(order, new AtomicLong());
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (long order : orders) {
            StoreClient alice = StoreClient.as(WRITER, store);
            long intervalNanos = rate == 0 ? 0 : 1_000_000_000L * orders.length / rate;
            Thread writer = new Thread(() -> {
                long next = System.nanoTime();
                while (writing.get()) {
                    patch(alice, order, (int) written.get(order).get());
                    written.get(order).incrementAndGet();
                    next += intervalNanos;
                    long sleep = next - System.nanoTime();
                    if (sleep > 0) {
                        try {
                            Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            });
            writers.add(writer);
            writer.start();
        }
        long maxHealthMs = 0;
        long maxHeapUsed = 0;
        long maxQueuedBytes = 0;
        long maxUndelivered = 0;
        for (long end = start + LOAD_TIME.toNanos(); System.nanoTime() < end; Thread.sleep(500)) {
            long asked = System.nanoTime();
            Health.Check health = Health.listener(server.healthRoot(), "ready");
            maxHealthMs = Math.max(maxHealthMs, (System.nanoTime() - asked) / 1_000_000);
            maxQueuedBytes = Math.max(maxQueuedBytes, health.number("queuedBytes"));
            maxUndelivered = Math.max(maxUndelivered, health.number("lastAssignedCursor") - health.number("lastDeliveredCursor"));
            maxHeapUsed = Math.max(maxHeapUsed, ServerStats.read(server.jvmPid()).heapUsed());
        }
        writing.set(false);
        for (Thread writer : writers) {
            writer.join();
        }
        long lastWrite = System.nanoTime();
        Map<Long, Long> owed = new LinkedHashMap<>();
        written.forEach((order, count) -> owed.put(order, count.get()));
        long drainHealthMs = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!clients.allServed(owed) && System.nanoTime() < deadline) {
            long asked = System.nanoTime();
            Health.listener(server.healthRoot(), "ready");
            drainHealthMs = Math.max(drainHealthMs, (System.nanoTime() - asked) / 1_000_000);
            Thread.sleep(100);
        }
        ServerStats after = ServerStats.read(server.jvmPid());
        printServerCounts(store);
        long serverCpu = ServerStats.cpuMillis(server.jvmPid()) - serverCpuBefore;
        long clientCpu = ServerStats.cpuMillis(ProcessHandle.current().pid()) - clientCpuBefore;
        long writes = owed.values().stream().mapToLong(Long::longValue).sum();
        long lastArrival = clients.lastArrival();
        return new LoadFigures(writes / ((lastWrite - start) / 1e9), clients.delivered() / ((lastArrival - start) / 1e9),
                clients.delivered(), writes * clients.owedConnections(), Math.max(0, (lastArrival - lastWrite) / 1_000_000),
                clients.unserved(owed), clients.resyncs(), clients.bobEvents(), Math.max(maxHealthMs, drainHealthMs),
                maxHeapUsed, after.gcMillis() - before.gcMillis(), after.fullGcs() - before.fullGcs(), maxQueuedBytes,
                maxUndelivered, serverCpu, clientCpu);
    }

    /** What the server says it did since it started: resyncs by reason, SSE streams ended by cause. */
    private static void printServerCounts(URL store) {
        StoreClient.Reply status = StoreClient.as("carol", store).get("streams/admin/status");
        if (status.status() != 200) {
            System.out.println("  (admin status unavailable: HTTP " + status.status() + ")");
            return;
        }
        var body = status.object();
        System.out.println("  server since start: resyncs " + body.getJsonObject("resyncs").getJsonObject("byReason")
                + ", SSE streams ended " + body.getJsonObject("transports").getJsonObject("sse").getJsonObject("endedByCause")
                + ", delivered " + body.get("deliveredEvents"));
    }

    /** After the overload: a new connection subscribes, a write follows; how long until its event arrives. */
    private static long freshSubscription(URL store, long order) throws Exception {
        try (LoadClients fresh = LoadClients.open(store, 1, "carol")) {
            fresh.reset();
            long start = System.nanoTime();
            patch(StoreClient.as(WRITER, store), order, -1);
            fresh.awaitOwed(Map.of(order, 1L), Duration.ofSeconds(15));
            return (fresh.lastArrival() - start) / 1_000_000;
        } catch (IllegalStateException notInTime) {
            return -1;
        }
    }

    private static void patch(StoreClient alice, long order, int n) {
        int status = alice.patch("api/orders/" + order, "{\"note\":\"n" + n + "\"}").status();
        if (status != 200) {
            throw new IllegalStateException("write failed with HTTP " + status);
        }
    }

    /** The raw PostgreSQL LISTEN/NOTIFY round trip on the test database, median of 200, in ms. */
    static double notifyRoundTripMillis() throws Exception {
        try (Connection listener = TestDatabase.connect(); Connection notifier = TestDatabase.connect();
             Statement listen = listener.createStatement(); Statement notify = notifier.createStatement()) {
            listen.execute("LISTEN bench_rtt");
            PGConnection pg = listener.unwrap(PGConnection.class);
            long[] rtts = new long[200];
            for (int i = 0; i < rtts.length; i++) {
                long start = System.nanoTime();
                notify.execute("NOTIFY bench_rtt");
                while (pg.getNotifications(1000).length == 0) {
                    Thread.onSpinWait();
                }
                rtts[i] = System.nanoTime() - start;
            }
            return pct(rtts, 50);
        }
    }

    static double pct(long[] nanos, int percentile) {
        if (nanos.length == 0) {
            return Double.NaN;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
        return sorted[index] / 1e6;
    }

    private static void print(List<Result> results) {
        System.out.println();
        System.out.println("| server | viewers, subscription | connections | NOTIFY rtt ms | sequential p50 ms | p99 ms"
                + " | max ms | p99 / rtt | visibility queries per write |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Result r : results) {
            System.out.printf("| %s | %s | %d | %.2f | %.1f | %.1f | %.1f | %.0f | %.2f |%n", r.server(), r.mode(), r.connections(),
                    r.notifyRttMs(), r.latencyMs()[0], r.latencyMs()[2], r.latencyMs()[3],
                    r.latencyMs()[2] / r.notifyRttMs(), r.queriesPerWrite());
        }
        System.out.println();
        System.out.println("| server | viewers, subscription | connections | phase | writes/s | deliveries/s | drain ms | unserved | resyncs"
                + " | bob's events | max health ms | max heap MB | GC ms | full GCs | max queued MB"
                + " | server CPU µs per delivery | client CPU µs per delivery |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Result r : results) {
            for (var phase : List.of(Map.entry("capacity", r.capacity()), Map.entry("overload", r.overload()))) {
                LoadFigures f = phase.getValue();
                System.out.printf("| %s | %s | %d | %s | %.0f | %.0f | %d | %d | %s | %d | %d | %d | %d | %d | %.1f | %.1f | %.1f |%n",
                        r.server(), r.mode(), r.connections(), phase.getKey(), f.writesPerSecond(), f.deliveriesPerSecond(),
                        f.drainMillis(), f.unserved(), f.resyncs(), f.bobEvents(), f.maxHealthMillis(),
                        f.maxHeapUsed() >> 20, f.gcMillis(), f.fullGcs(), f.maxQueuedBytes() / 1048576.0,
                        f.serverCpuMillis() * 1000.0 / Math.max(1, f.delivered()),
                        f.clientCpuMillis() * 1000.0 / Math.max(1, f.delivered()));
            }
        }
        System.out.println();
        for (Result r : results) {
            System.out.printf("%s, %s, %d connections: a fresh subscription after the overload got its event in %d ms%n",
                    r.server(), r.mode(), r.connections(), r.freshSubscriptionMs());
        }
    }
}
