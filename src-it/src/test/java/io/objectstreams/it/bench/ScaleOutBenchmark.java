package io.objectstreams.it.bench;

import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.PayaraMicroProcess;
import io.objectstreams.it.support.Ports;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Measures scale-out on one machine (issue 44, item 4), run with
 * {@code mvn -o -pl src-it -Pbench process-test-classes exec:java@scale-out}: {@code bench.instances} (3) Payara
 * Micro instances of the demo WAR on one PostgreSQL, writers spread across them, and every instance's subscribers
 * checked against what the outbox says they are owed.
 *
 * <p>Each instance has the demo's heap and collector ({@code -Dstreams.server.jvm-options}, by default
 * {@code -Xmx512m -XX:+UseSerialGC}, as every benchmark's server) and {@link FanOutLoadBenchmark}'s load limits. On
 * each, {@code bench.viewers-per-instance} (100) WebSocket connections, alice, bob and carol in turn, subscribe to
 * the model {@code store.CustomerOrder}. Then {@code bench.writers} (6) writers, writer i through the REST API of
 * instance i % N, each PATCH an order of alice's of its own as fast as they can for {@code bench.seconds} (30).
 * After the writers stop, the benchmark waits until every row has its cursor, every instance has delivered through
 * the last, and every connection has what it is owed (each wait at most {@code bench.drain} s, 60), then
 * {@code bench.settle} s (2) more for late duplicates; then {@link ScaleOutOracle} checks every connection against
 * {@code streams_numbered}.
 *
 * <p>Prints writes/s in all and per instance written through; the rows the assigner numbered per second
 * ({@code streams_cursor_state.last_cursor} every 500 ms: the mean over the writes and the fastest interval);
 * write-to-event latency per subscribing instance (from the outbox row's insert, just before its commit, to the
 * event's arrival: p50 and p99 over every owed event); each instance's and PostgreSQL's CPU during the writes; and
 * which instance held the assigner role (readiness before and after, and how often each logged taking it). Fails,
 * naming the instance and connection, when a connection lost, duplicated or reordered an event or got one it was not
 * owed, or when the outbox holds other than one row per write; asserts nothing about speed. Needs schema V7 (the
 * oracle reads the view {@code streams_numbered}).
 */
public final class ScaleOutBenchmark {

    private static final int INSTANCES = Integer.getInteger("bench.instances", 3);
    private static final int VIEWERS = Integer.getInteger("bench.viewers-per-instance", 100);
    private static final int WRITERS = Integer.getInteger("bench.writers", 6);
    private static final Duration LOAD_TIME = Duration.ofSeconds(Integer.getInteger("bench.seconds", 30));
    private static final Duration DRAIN = Duration.ofSeconds(Integer.getInteger("bench.drain", 60));
    private static final Duration SETTLE = Duration.ofSeconds(Integer.getInteger("bench.settle", 2));
    private static final List<String> USERS = List.of("alice", "bob", "carol");
    private static final String ROLE_TAKEN = "holds the assigner role";

    private ScaleOutBenchmark() {
    }

    /** What the writers did, and what the servers and the assigner did meanwhile. */
    record Load(long[] writes, double seconds, long[] serverCpuMillis, long postgresCpuMillis, long numbered,
                double fastestNumberedPerSecond, long unnumberedAtStop) {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        List<PayaraMicroProcess> servers = new ArrayList<>();
        try {
            Map<String, String> env = FanOutLoadBenchmark.serverEnvironment();
            for (int i = 0; i < INSTANCES; i++) {
                servers.add(PayaraMicroProcess.start(name(i), Ports.free(), env));
            }
            for (int i = 0; i < INSTANCES; i++) {
                servers.get(i).awaitStarted(Duration.ofMinutes(5));
                if (!servers.get(i).isAlive()) {
                    throw new IllegalStateException(name(i) + " exited while starting; log:\n" + servers.get(i).log());
                }
                Health.awaitListenerReady(servers.get(i).healthRoot(), true);
            }
            measure(servers);
        } finally {
            try {
                for (PayaraMicroProcess server : servers) {
                    server.close();
                }
            } finally {
                TestDatabase.stop();
            }
        }
    }

    private static String name(int instance) {
        return "scale-out-" + (instance + 1);
    }

    private static void measure(List<PayaraMicroProcess> servers) throws Exception {
        StoreClient alice = StoreClient.as("alice", servers.get(0).deployment());
        long[] orders = new long[WRITERS];
        for (int i = 0; i < WRITERS; i++) {
            orders[i] = alice.createOrder("{\"status\":\"open\",\"total\":" + (i + 1) + "}");
        }
        // The orders' creations are delivered everywhere before anyone subscribes: a subscription is owed only writes.
        awaitNumbered();
        try (Connection db = TestDatabase.connect()) {
            awaitDelivered(servers, ScaleOutOracle.lastCursor(db));
        }
        List<String> rolesBefore = servers.stream().map(PayaraMicroProcess::role).toList();
        List<LoadClients> clients = new ArrayList<>();
        try {
            for (PayaraMicroProcess server : servers) {
                clients.add(LoadClients.open(server.deployment(), VIEWERS, i -> USERS.get(i % USERS.size()), "alice",
                        LoadClients.MODEL_SUBSCRIBE, true));
            }
            System.out.printf("%n== scale-out: %d instances, %d viewers each, %d writers for %d s ==%n", INSTANCES,
                    VIEWERS, WRITERS, LOAD_TIME.toSeconds());
            Load load = write(servers, orders);
            long stop = System.nanoTime();
            awaitNumbered();
            long numberedMs = (System.nanoTime() - stop) / 1_000_000;
            try (Connection db = TestDatabase.connect()) {
                awaitDelivered(servers, ScaleOutOracle.lastCursor(db));
            }
            List<List<ReceivedCursors.Log>> received = received(clients);
            long subscribedFrom = received.stream().flatMap(List::stream)
                    .mapToLong(ReceivedCursors.Log::subscribed).min().orElseThrow();
            ScaleOutOracle oracle = ScaleOutOracle.read(subscribedFrom);
            long deadline = System.nanoTime() + DRAIN.toNanos();
            while (oracle.incomplete(received) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(250);
                received = received(clients);
            }
            long receivedMs = oracle.incomplete(received) > 0 ? -1 : (System.nanoTime() - stop) / 1_000_000;
            Thread.sleep(SETTLE.toMillis());
            received = received(clients);
            List<String> rolesAfter = servers.stream().map(PayaraMicroProcess::role).toList();
            report(servers, load, oracle, received, rolesBefore, rolesAfter, new long[] {numberedMs, receivedMs});
        } finally {
            clients.forEach(LoadClients::close);
        }
    }

    private static List<List<ReceivedCursors.Log>> received(List<LoadClients> clients) {
        return clients.stream().map(LoadClients::received).toList();
    }

    /**
     * Writer i PATCHes its own order (a new note each time) through instance i % N as fast as it can, until
     * {@code writing} is cleared or a write fails.
     */
    private static List<Thread> writers(List<PayaraMicroProcess> servers, long[] orders, AtomicLong[] written,
                                        AtomicBoolean writing, AtomicReference<RuntimeException> failure) {
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            StoreClient alice = StoreClient.as("alice", servers.get(i % servers.size()).deployment());
            String path = "api/orders/" + orders[i];
            AtomicLong count = written[i] = new AtomicLong();
            String writer = "writer " + i + " (through " + name(i % servers.size()) + ")";
            writers.add(new Thread(() -> {
                while (writing.get() && failure.get() == null) {
                    try {
                        int status = alice.patch(path, "{\"note\":\"w" + count.get() + "\"}").status();
                        if (status != 200) {
                            throw new IllegalStateException("HTTP " + status);
                        }
                        count.incrementAndGet();
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, new IllegalStateException(writer + " failed", e));
                    }
                }
            }, "writer-" + i));
        }
        return writers;
    }

    /** Runs the writers for {@link #LOAD_TIME}, sampling the assigner's last cursor every 500 ms. */
    private static Load write(List<PayaraMicroProcess> servers, long[] orders) throws Exception {
        AtomicLong[] written = new AtomicLong[WRITERS];
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> writers = writers(servers, orders, written, writing, failure);
        long[] cpuBefore = servers.stream().mapToLong(s -> ServerStats.cpuMillis(s.jvmPid())).toArray();
        long postgresBefore = postgresCpuMillis();
        try (Connection db = TestDatabase.connect()) {
            long firstCursor = ScaleOutOracle.lastCursor(db);
            long start = System.nanoTime();
            writers.forEach(Thread::start);
            double fastest = 0;
            long sampledAt = start;
            long sampled = firstCursor;
            for (long end = start + LOAD_TIME.toNanos(); System.nanoTime() < end; ) {
                Thread.sleep(500);
                long cursor = ScaleOutOracle.lastCursor(db);
                long now = System.nanoTime();
                fastest = Math.max(fastest, (cursor - sampled) * 1e9 / (now - sampledAt));
                sampled = cursor;
                sampledAt = now;
            }
            writing.set(false);
            for (Thread writer : writers) {
                writer.join();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long numbered = ScaleOutOracle.lastCursor(db) - firstCursor;
            long[] cpu = servers.stream().mapToLong(s -> ServerStats.cpuMillis(s.jvmPid())).toArray();
            Arrays.setAll(cpu, i -> cpu[i] - cpuBefore[i]);
            if (failure.get() != null) {
                throw failure.get();
            }
            return new Load(Arrays.stream(written).mapToLong(AtomicLong::get).toArray(), seconds, cpu,
                    postgresCpuMillis() - postgresBefore, numbered, fastest, ScaleOutOracle.unnumbered());
        }
    }

    private static long postgresCpuMillis() {
        return ServerStats.postgresCpuMillis().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Waits (at most {@link #DRAIN}) until every outbox row has its cursor. */
    private static void awaitNumbered() throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (ScaleOutOracle.unnumbered() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ScaleOutOracle.unnumbered() + " rows had no cursor after " + DRAIN);
            }
            Thread.sleep(50);
        }
    }

    /** Waits (at most {@link #DRAIN} for each) until every instance has delivered through {@code cursor}. */
    private static void awaitDelivered(List<PayaraMicroProcess> servers, long cursor) throws InterruptedException {
        for (int i = 0; i < servers.size(); i++) {
            long deadline = System.nanoTime() + DRAIN.toNanos();
            while (Health.listener(servers.get(i).healthRoot(), "ready").number("lastDeliveredCursor") < cursor) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name(i) + " did not deliver through " + cursor + " in " + DRAIN);
                }
                Thread.sleep(50);
            }
        }
    }

    private static void report(List<PayaraMicroProcess> servers, Load load, ScaleOutOracle oracle,
                               List<List<ReceivedCursors.Log>> received, List<String> rolesBefore,
                               List<String> rolesAfter, long[] drainMs) {
        List<ScaleOutOracle.Tally> tallies = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            tallies.add(oracle.check(name(i), received.get(i)));
        }
        System.out.println("| instance | role before | role after | took the role (log) | writers | writes/s"
                + " | server CPU, % of a core | connections | events owed | received | lost | duplicates"
                + " | out of order | not owed | resynced | ended | p50 ms | p99 ms |");
        System.out.println("|" + " --- |".repeat(18));
        for (int i = 0; i < servers.size(); i++) {
            printInstance(i, servers.get(i), load, tallies.get(i), rolesBefore.get(i), rolesAfter.get(i));
        }
        long writes = Arrays.stream(load.writes()).sum();
        System.out.printf("%d writes in %.1f s: %.0f writes/s in all. The assigner numbered %.0f rows/s over the"
                        + " writes (fastest 500 ms: %.0f rows/s); %d rows had no cursor when the writers stopped, all"
                        + " had one %d ms later; %s. PostgreSQL CPU %.0f%% of a core.%n", writes, load.seconds(),
                writes / load.seconds(), load.numbered() / load.seconds(), load.fastestNumberedPerSecond(),
                load.unnumberedAtStop(), drainMs[0], drainMs[1] < 0 ? "some connections still lacked events after "
                        + DRAIN.toSeconds() + " s" : "every connection had what it was owed " + drainMs[1]
                        + " ms after the stop", load.postgresCpuMillis() / (10 * load.seconds()));
        List<String> failures = new ArrayList<>();
        if (oracle.rows() != writes) {
            failures.add("the outbox holds " + oracle.rows() + " rows of " + ScaleOutOracle.MODEL + " after the"
                    + " subscriptions' cursors, but the writers committed " + writes + " writes");
        }
        tallies.forEach(t -> failures.addAll(t.failures));
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " failures (the first 50):\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(50, failures.size()))));
        }
        new ScaleOutOracleSelfTest(oracle).run(received.stream().flatMap(List::stream).toList());
    }

    private static void printInstance(int i, PayaraMicroProcess server, Load load, ScaleOutOracle.Tally t,
                                      String roleBefore, String roleAfter) {
        long taken = server.log().lines().filter(line -> line.contains(ROLE_TAKEN)).count();
        long writes = 0;
        int writers = 0;
        for (int w = i; w < load.writes().length; w += INSTANCES) {
            writes += load.writes()[w];
            writers++;
        }
        long[] latencies = t.latencies();
        System.out.printf("| %s | %s | %s | %d | %d | %.0f | %.0f | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1f"
                        + " | %.1f |%n", name(i), roleBefore, roleAfter, taken, writers, writes / load.seconds(),
                load.serverCpuMillis()[i] / (10 * load.seconds()), t.connections, t.owed, t.received, t.lost,
                t.duplicates, t.outOfOrder, t.notOwed, t.resynced, t.ended, FanOutLoadBenchmark.pct(latencies, 50),
                FanOutLoadBenchmark.pct(latencies, 99));
    }
}
