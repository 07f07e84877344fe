package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Payara Micro server started as a plain process, for tests Arquillian cannot express: a deployment that
 * must fail, several instances on one database, killing a server. Uses the same jar and WAR as Arquillian.
 */
public final class PayaraMicroProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final int httpPort;

    private PayaraMicroProcess(Process process, Path log, int httpPort) {
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /** Starts Payara Micro deploying the store WAR on a free port; {@code env} is added to the database settings. */
    public static PayaraMicroProcess start(String name, Map<String, String> env) {
        try {
            return start(name, freePort(), env);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts Payara Micro deploying the store WAR on {@code port}. */
    public static PayaraMicroProcess start(String name, int port, Map<String, String> env) {
        return start(name, port, new File(requiredFile("streams.it.war")), env);
    }

    /** Starts Payara Micro deploying {@code war} on {@code port}. */
    public static PayaraMicroProcess start(String name, int port, File war, Map<String, String> env) {
        return start(name, port, war, env, List.of());
    }

    /** Starts Payara Micro deploying {@code war} on {@code port}, with extra Payara Micro options. */
    public static PayaraMicroProcess start(String name, int port, File war, Map<String, String> env,
                                           List<String> microOptions) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "micro-" + name));
            Path log = dir.resolve("server.log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:+UseSerialGC",
                    "-jar", requiredFile("payara.microJar"),
                    "--nocluster", "--port", Integer.toString(port), "--sslPort", Integer.toString(freePort()),
                    "--deploy", war.getAbsolutePath()));
            command.addAll(microOptions);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(databaseEnvironment());
            builder.environment().putAll(env);
            return new PayaraMicroProcess(builder.start(), log, port);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start Payara Micro", e);
        }
    }

    /** The environment that points a server at the test database. */
    public static Map<String, String> databaseEnvironment() {
        return Map.of(
                "STREAMS_DB_HOST", TestDatabase.setting("host", "localhost"),
                "STREAMS_DB_PORT", TestDatabase.setting("port", "15432"),
                "STREAMS_DB_NAME", TestDatabase.setting("name", "postgres"),
                "STREAMS_DB_USER", TestDatabase.setting("user", "postgres"),
                "STREAMS_DB_PASSWORD", TestDatabase.setting("password", "postgres"));
    }

    /** Waits until the server reports it finished starting (whether or not the deployment succeeded). */
    public PayaraMicroProcess awaitStarted(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (log().contains(" ready in ") || !process.isAlive()) {
                return this;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Payara Micro did not start within " + timeout + "; log:\n" + log());
    }

    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's root URL. */
    public java.net.URI root() {
        return java.net.URI.create("http://localhost:" + httpPort + "/");
    }

    /** The deployment's URL, as Arquillian would inject it. */
    public java.net.URL deployment() {
        try {
            return root().resolve("/store/").toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Kills the server without any shutdown (SIGKILL): its sessions die with it. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Asks the server to stop (SIGTERM) and waits for it; returns whether it exited within the bound. */
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** A thread dump of the running server, taken with {@code jcmd}. */
    public String threadDump() throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                .redirectErrorStream(true).start();
        String output = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        dump.waitFor();
        return output;
    }

    public int httpPort() {
        return httpPort;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static String requiredFile(String property) {
        String path = System.getProperty(property);
        if (path == null || !new File(path).isFile()) {
            throw new IllegalStateException(property + " must name an existing file (got " + path + "); run through Maven");
        }
        return path;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
