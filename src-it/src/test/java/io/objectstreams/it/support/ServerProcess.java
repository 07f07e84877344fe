package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A server of the kind under test ({@code streams.it.server}) started as a plain process, for what Arquillian
 * cannot express: a deployment that must fail, several instances on one database, killing a server,
 * undeploying while the server keeps running. Payara Micro runs the WAR, WildFly and Payara Server the EAR.
 */
public interface ServerProcess extends AutoCloseable {

    /**
     * An entry of {@code env} that sets the maximum size of the server's {@code jdbc/store} pool (default 32):
     * Payara Micro reads it when its post-boot commands are written, WildFly's datasource from the environment.
     */
    String POOL_MAX = "STREAMS_IT_POOL_MAX";

    /**
     * An entry of {@code env} that starts the server under that open-file limit (soft and hard, {@code ulimit -n}),
     * for a test of what it does when it runs out of descriptors (Payara Micro and WildFly).
     */
    String OPEN_FILES = "STREAMS_IT_OPEN_FILES";

    /**
     * The heap and collector a started server runs with: the demo's 512 MB and the serial collector unless
     * {@code -Dstreams.server.jvm-options} says otherwise (docs/benchmarks.md compares collectors).
     */
    static List<String> memoryOptions() {
        return List.of(System.getProperty("streams.server.jvm-options", "-Xmx512m -XX:+UseSerialGC")
                .trim().split("\\s+"));
    }

    /**
     * The JIT options of every server JVM the test suites start: {@code -Dstreams.it.jit-options}, the JIT's first
     * tier only in {@code src-it/pom.xml}'s test executions, for servers that start and deploy faster (testing.md);
     * empty for the benchmarks, which measure with the full JIT.
     */
    static List<String> jitOptions() {
        return Arrays.stream(System.getProperty("streams.it.jit-options", "").trim().split("\\s+"))
                .filter(option -> !option.isEmpty()).toList();
    }

    /** Starts a server deploying {@code archive}, with the test database's settings plus {@code env}. */
    static ServerProcess start(String name, File archive, Map<String, String> env) {
        return start(Deployments.server(), name, archive, env);
    }

    /**
     * Starts a server of the given kind ({@code payara-micro} with a WAR, {@code wildfly} or {@code payara-server}
     * with an EAR).
     */
    static ServerProcess start(String server, String name, File archive, Map<String, String> env) {
        return switch (server) {
            case "wildfly" -> WildFlyProcess.start(name, archive, env);
            case "payara-server" -> PayaraServerProcess.start(name, archive, env);
            default -> PayaraMicroProcess.start(name, Ports.free(), archive, env);
        };
    }

    /** Waits until the server reports it finished starting, whether or not the deployment succeeded. */
    ServerProcess awaitStarted(Duration timeout) throws InterruptedException;

    /**
     * Starts a server, lets the listener start, then undeploys the application while the server keeps
     * running: WildFly by removing the archive from its deployment scanner's folder, Payara Server with
     * {@code asadmin undeploy}, Payara Micro (which has no runtime undeploy) by an {@code undeploy} asadmin command
     * run after deployment.
     */
    static ServerProcess startUndeployed(String name, File archive, Duration timeout) throws InterruptedException {
        if (Deployments.server().equals("payara-server")) {
            return PayaraServerProcess.startUndeployed(name, archive, timeout);
        }
        if (Deployments.server().equals("wildfly")) {
            WildFlyProcess server = WildFlyProcess.start(name, archive, Map.of()).awaitStarted(timeout);
            server.awaitLog("Object Streams listener holds the assigner role", timeout);
            server.undeploy(timeout);
            return server;
        }
        return PayaraMicroProcess.startUndeployed(name, archive, timeout);
    }

    String log();

    /** Waits until the log contains {@code text}. */
    default void awaitLog(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!log().contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("'" + text + "' not logged within " + timeout + "; log:\n" + log());
            }
            Thread.sleep(200);
        }
    }

    /** The HTTP root of the server, e.g. {@code http://localhost:8080/}. */
    URI root();

    /** Where MicroProfile Health is served. */
    URI healthRoot();

    /** The store's base URL, as Arquillian would inject it. */
    default URL deployment() {
        try {
            return root().resolve("/store/").toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    boolean isAlive();

    /** The listener's role as readiness reports it ({@code assigner}, {@code follower}), or {@code unknown}. */
    default String role() {
        try {
            return Health.listener(healthRoot(), "ready").role();
        } catch (RuntimeException | AssertionError notYet) {
            return "unknown";
        }
    }

    /** Kills the server without any shutdown (SIGKILL): its database sessions die with it. */
    void kill() throws InterruptedException;

    /** Asks the server to stop (SIGTERM) and waits; returns whether it exited within the bound. */
    boolean stopGracefully(Duration timeout) throws InterruptedException;

    /** The process id of the server's JVM (for {@code jcmd} and {@code jstat}). */
    long jvmPid();

    /** A thread dump of the server's JVM, taken with {@code jcmd}. */
    String threadDump() throws IOException, InterruptedException;

    @Override
    void close() throws InterruptedException;

    /** A thread dump of one JVM. */
    static String threadDump(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                .redirectErrorStream(true).start();
        String output = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        dump.waitFor();
        return output;
    }
}
