package io.objectstreams.it.bench;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.Outbox;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.TestDatabase;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code mvn -pl src-it -Pbench package}: what capture costs a write. The same one-row update transaction (an
 * order's note, through an EJB with a container transaction, JPA dirty checking at commit) on the demo's
 * {@code @Streamed} {@code CustomerOrder} and on {@code ItPlainOrder}, the same table mapped without
 * {@code @Streamed}. Rounds alternate between the two so drift on the shared machine hits both alike. Reports
 * sequential latency and the throughput of 4 concurrent writers, each as streamed / plain.
 */
public final class CaptureOverheadBenchmark {

    private static final List<String> SERVERS = List.of(System.getProperty("bench.servers", "payara-micro,wildfly").split(","));
    private static final int WRITES = Integer.getInteger("bench.capture.writes", 400);
    private static final int ROUNDS = Integer.getInteger("bench.capture.rounds", 5);
    /** Writes of each kind before anything is timed: a fresh server's JIT otherwise moves the first rounds by 50%. */
    private static final int WARM_UP = Integer.getInteger("bench.capture.warm-up", 2000);
    private static final int WRITERS = 4;
    private static final int BREAKDOWN_WRITES = Integer.getInteger("bench.capture.breakdown-writes", 1000);
    private static final List<String> breakdowns = new ArrayList<>();
    /** Per breakdown (server, writers): server CPU and PostgreSQL CPU, ms per write, streamed then plain. */
    private static final java.util.LinkedHashMap<String, double[]> plotted = new java.util.LinkedHashMap<>();
    /** {@code -Dbench.capture.cpu-sets=true}: the server and PostgreSQL each on a core of its own ({@code taskset}). */
    private static final boolean CPU_SETS = Boolean.getBoolean("bench.capture.cpu-sets");
    /** How long a breakdown waits for its rows' cursors, and how often it asks (the wait is part of the timing). */
    private static final Duration ASSIGN_PATIENCE = Duration.ofMinutes(1);
    private static final Duration ASSIGN_POLL = Duration.ofMillis(20);

    private CaptureOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        List<String> rows = new ArrayList<>();
        try {
            for (String server : SERVERS) {
                rows.add(run(server));
            }
        } finally {
            TestDatabase.stop();
        }
        System.out.println();
        System.out.println("Where one sequential write's cost goes (" + BREAKDOWN_WRITES + " writes, until every row has"
                + " its cursor): server CPU, WAL, and database time by statement (pg_stat_statements, COMMIT included)");
        breakdowns.forEach(System.out::println);
        plot();
        System.out.println();
        System.out.println("| server | streamed ms per write (sequential, median round) | plain ms | ratio"
                + " | streamed writes/s (4 writers) | plain writes/s | ratio |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        rows.forEach(System.out::println);
    }

    private static String run(String kind) throws Exception {
        System.setProperty("streams.it.server", kind);
        File archive = Deployments.storeFile("capture-overhead-" + kind);
        // -Dbench.capture.coalesce-window=0ms compares against wakeups served one by one.
        String window = System.getProperty("bench.capture.coalesce-window");
        Map<String, String> env = window == null ? Map.of() : Map.of("STREAMS_LISTENER_COALESCE_WINDOW", window);
        try (ServerProcess server = ServerProcess.start(kind, "capture-overhead", archive, env)) {
            server.awaitStarted(Duration.ofMinutes(3));
            if (CPU_SETS) {
                // The server on the first core, PostgreSQL on the second (new backends inherit the postmaster's).
                pin("0", List.of(server.jvmPid()));
                pin("1", ServerStats.postgresCpuMillis().keySet().stream().filter(pid -> pid != 0).toList());
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (!ready(server) && System.nanoTime() < deadline) {
                Thread.sleep(250);
            }
            StoreClient alice = StoreClient.as("alice", server.deployment());
            long[] orders = new long[WRITERS];
            for (int i = 0; i < WRITERS; i++) {
                orders[i] = alice.createOrder("{\"status\":\"open\",\"total\":1}");
            }
            for (int i = 0; i < WARM_UP / WRITES; i++) {
                sequential(alice, orders[0], "touch-streamed", WRITES);
                sequential(alice, orders[0], "touch-plain", WRITES);
            }
            concurrent(server, orders, "touch-streamed");
            concurrent(server, orders, "touch-plain");
            List<Double> streamed = new ArrayList<>();
            List<Double> plain = new ArrayList<>();
            List<Double> streamedRate = new ArrayList<>();
            List<Double> plainRate = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                streamed.add(sequential(alice, orders[0], "touch-streamed", WRITES));
                plain.add(sequential(alice, orders[0], "touch-plain", WRITES));
                streamedRate.add(concurrent(server, orders, "touch-streamed"));
                plainRate.add(concurrent(server, orders, "touch-plain"));
            }
            for (int writers : List.of(1, WRITERS)) {
                breakdowns.add(breakdown(kind, server, orders, writers, "touch-streamed"));
                breakdowns.add(breakdown(kind, server, orders, writers, "touch-plain"));
            }
            double s = median(streamed);
            double p = median(plain);
            double sr = median(streamedRate);
            double pr = median(plainRate);
            System.out.printf("%s: streamed %.2f ms, plain %.2f ms per sequential write; %d writers: %.0f vs %.0f writes/s%n",
                    kind, s, p, WRITERS, sr, pr);
            return String.format("| %s%s%s%s | %.2f | %.2f | %.2f | %.0f | %.0f | %.2f |", kind,
                    window == null ? "" : ", coalesce-window " + window, CPU_SETS ? ", one core each" : "",
                    Boolean.getBoolean("streams.it.db.durable") ? "" : ", fsync and synchronous_commit off",
                    s, p, s / p, sr, pr, pr / sr);
        }
    }

    /**
     * One writer's writes measured part by part: the server's CPU (its JVM, all threads: the request, the capture,
     * the listener and the delivery thread), the WAL they make, and PostgreSQL's time per statement (the
     * statements of the write, the outbox insert, the assigner's batch, the delivery read and the NOTIFYs), each
     * per write, counted until the last row has its cursor.
     */
    private static String breakdown(String kind, ServerProcess server, long[] orders, int writers, String scenario)
            throws Exception {
        Outbox.awaitAssigned(server.deployment(), ASSIGN_PATIENCE, ASSIGN_POLL);
        TestDatabase.resetStatementCounts();
        long wal = walBytes();
        long cpu = ServerStats.cpuMillis(server.jvmPid());
        Map<String, Long> threads = ServerStats.cpuMillisByThread(server.jvmPid());
        Map<Long, Long> postgres = ServerStats.postgresCpuMillis();
        long start = System.nanoTime();
        List<Thread> threadsWriting = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            StoreClient client = StoreClient.as("alice", server.deployment());
            long order = orders[w];
            Thread thread = new Thread(() -> {
                for (int i = 0; i < BREAKDOWN_WRITES / writers; i++) {
                    touch(client, order, scenario);
                }
            });
            threadsWriting.add(thread);
            thread.start();
        }
        for (Thread thread : threadsWriting) {
            thread.join();
        }
        Outbox.awaitAssigned(server.deployment(), ASSIGN_PATIENCE, ASSIGN_POLL);
        double wallMs = (System.nanoTime() - start) / 1e6 / BREAKDOWN_WRITES;
        double cpuMs = (ServerStats.cpuMillis(server.jvmPid()) - cpu) / (double) BREAKDOWN_WRITES;
        Map<Long, Long> postgresAfter = ServerStats.postgresCpuMillis();
        Map<String, Long> byRole = new java.util.TreeMap<>();
        Map<Long, String> roles = postgresRoles();
        postgresAfter.forEach((pid, ms) -> byRole.merge(pid == 0 ? "ended processes" : roles.getOrDefault(pid, "other"),
                ms - postgres.getOrDefault(pid, 0L), Long::sum));
        double postgresMs = byRole.values().stream().mapToLong(Long::longValue).sum() / (double) BREAKDOWN_WRITES;
        Map<String, Long> threadsAfter = ServerStats.cpuMillisByThread(server.jvmPid());
        double walPerWrite = (walBytes() - wal) / (double) BREAKDOWN_WRITES;
        StringBuilder out = new StringBuilder(String.format("%n%s, %s, %d writer(s): %.2f ms per write (wall), server"
                + " CPU %.2f ms, PostgreSQL CPU %.2f ms, WAL %.0f bytes per write%nserver CPU by thread, ms per write:",
                kind, scenario, writers, wallMs, cpuMs, postgresMs, walPerWrite));
        threadsAfter.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - threads.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(10)
                .forEach(e -> out.append(String.format(" %s %.3f;", e.getKey(), e.getValue() / (double) BREAKDOWN_WRITES)));
        out.append(String.format("%nPostgreSQL CPU by process, ms per write:"));
        byRole.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.append(String.format(" %s %.3f;", e.getKey(), e.getValue() / (double) BREAKDOWN_WRITES)));
        long compiling = threadsAfter.entrySet().stream().filter(e -> e.getKey().contains("CompilerThre"))
                .mapToLong(e -> e.getValue() - threads.getOrDefault(e.getKey(), 0L)).sum();
        double withoutJit = cpuMs - compiling / (double) BREAKDOWN_WRITES;
        out.append(String.format("%nserver CPU without the JIT compiler threads: %.2f ms per write", withoutJit));
        double[] figures = plotted.computeIfAbsent(kind + ", " + writers + (writers == 1 ? " writer" : " writers"),
                k -> new double[4]);
        int at = scenario.equals("touch-streamed") ? 0 : 1;
        figures[at] = withoutJit;
        figures[2 + at] = postgresMs;
        out.append(String.format("%n| statement | calls per write | database ms per write |%n| --- | --- | --- |%n"));
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT regexp_replace(left(query, 90), '\\s+', ' ', 'g'), calls,"
                     + " total_exec_time FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'"
                     + " AND query NOT ILIKE '%pg_current_wal%' AND query NOT ILIKE '%FILTER (WHERE cursor IS NULL)%'"
                     + " ORDER BY total_exec_time DESC LIMIT 14")) {
            while (rs.next()) {
                out.append(String.format("| `%s` | %.2f | %.4f |%n", rs.getString(1).replace("|", "\\|"),
                        rs.getLong(2) / (double) BREAKDOWN_WRITES, rs.getDouble(3) / BREAKDOWN_WRITES));
            }
        }
        return out.toString();
    }

    /** Writes target/capture-overhead.svg: CPU per write, streamed and plain, server and PostgreSQL. */
    private static void plot() throws java.io.IOException {
        List<String> groups = new ArrayList<>(plotted.keySet());
        Map<String, double[]> series = new java.util.LinkedHashMap<>();
        String[] names = {"server, streamed", "server, plain", "PostgreSQL, streamed", "PostgreSQL, plain"};
        for (int i = 0; i < names.length; i++) {
            int index = i;
            series.put(names[i], groups.stream().mapToDouble(g -> plotted.get(g)[index]).toArray());
        }
        java.nio.file.Path file = java.nio.file.Path.of("target", "capture-overhead.svg");
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, LoadPlots.chart("CPU per write, without the JIT compiler threads",
                groups, series, "ms per write"));
        System.out.println("Plot written: " + file.toAbsolutePath().normalize());
    }

    /** Binds every thread of the given processes to the listed CPUs. */
    private static void pin(String cpus, List<Long> pids) throws Exception {
        for (long pid : pids) {
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (taskset.waitFor() != 0) {
                throw new IllegalStateException("taskset failed for pid " + pid + ": " + output);
            }
        }
    }

    /** What each PostgreSQL process is: a session's application name, or a background process's type. */
    private static Map<Long, String> postgresRoles() throws java.sql.SQLException {
        Map<Long, String> roles = new java.util.HashMap<>();
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT pid, CASE WHEN backend_type = 'client backend' THEN"
                     + " 'session ' || coalesce(nullif(application_name, ''), '?') ELSE backend_type END"
                     + " FROM pg_stat_activity")) {
            while (rs.next()) {
                roles.put(rs.getLong(1), rs.getString(2));
            }
        }
        return roles;
    }

    private static long walBytes() throws java.sql.SQLException {
        try (java.sql.Connection c = TestDatabase.connect(); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Mean ms per write of one writer. */
    private static double sequential(StoreClient client, long order, String scenario, int writes) {
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            touch(client, order, scenario);
        }
        return (System.nanoTime() - start) / 1e6 / writes;
    }

    /** Writes/s of {@link #WRITERS} writers, each on its own order, {@link #WRITES} writes each. */
    private static double concurrent(ServerProcess server, long[] orders, String scenario) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        AtomicLong done = new AtomicLong();
        long start = System.nanoTime();
        for (long order : orders) {
            StoreClient client = StoreClient.as("alice", server.deployment());
            Thread thread = new Thread(() -> {
                for (int i = 0; i < WRITES; i++) {
                    touch(client, order, scenario);
                    done.incrementAndGet();
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return done.get() / ((System.nanoTime() - start) / 1e9);
    }

    private static void touch(StoreClient client, long order, String scenario) {
        int status = client.post("api/it/capture/" + scenario + "?id=" + order, null).status();
        if (status != 200) {
            throw new IllegalStateException(scenario + " failed with HTTP " + status);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    private static boolean ready(ServerProcess server) {
        try {
            return Health.listener(server.healthRoot(), "ready").up();
        } catch (RuntimeException | AssertionError notYet) {
            return false;
        }
    }
}
