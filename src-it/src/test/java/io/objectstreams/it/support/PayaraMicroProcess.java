package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
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
public final class PayaraMicroProcess implements ServerProcess {

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
        return start(name, Ports.free(), env);
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
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(ServerProcess.memoryOptions());
            command.addAll(ServerProcess.jitOptions());
            command.addAll(List.of(
                    "-jar", requiredFile("payara.microJar"),
                    "--nocluster", "--port", Integer.toString(port), "--sslPort", Integer.toString(Ports.free()),
                    "--deploy", war.getAbsolutePath()));
            command.addAll(microOptions);
            Path postBoot = MicroResources.writePostBootCommands(dir.resolve("post-boot.txt"), false,
                    Integer.parseInt(env.getOrDefault(ServerProcess.POOL_MAX, "32")), env);
            command.addAll(List.of("--addLibs", requiredFile("streams.it.driver"),
                    "--postbootcommandfile", postBoot.toAbsolutePath().toString()));
            String openFiles = env.get(ServerProcess.OPEN_FILES);
            if (openFiles != null) {
                command.addAll(0, List.of("bash", "-c", "ulimit -n " + Integer.parseInt(openFiles) + " && exec \"$@\"", "--"));
            }
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(TestDatabase.serverEnvironment());
            builder.environment().putAll(env);
            return new PayaraMicroProcess(builder.start(), log, port);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start Payara Micro", e);
        }
    }


    /** Starts Payara Micro with {@code undeploy store} as a post-deploy command: the listener starts, then goes. */
    static ServerProcess startUndeployed(String name, File war, Duration timeout) throws InterruptedException {
        try {
            Path commands = Files.writeString(war.toPath().resolveSibling("undeploy-" + name + ".txt"), "undeploy store\n");
            PayaraMicroProcess server = start(name, Ports.free(), war, Map.of(),
                    List.of("--postdeploycommandfile", commands.toAbsolutePath().toString()));
            server.awaitStarted(timeout);
            server.awaitLog("Boot Command undeploy returned with result SUCCESS", timeout);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public java.net.URI healthRoot() {
        return root();
    }

    /** Waits until the server reports it finished starting (whether or not the deployment succeeded). */
    @Override
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

    @Override
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's root URL. */
    @Override
    public java.net.URI root() {
        return java.net.URI.create("http://localhost:" + httpPort + "/");
    }

    /** Kills the server without any shutdown (SIGKILL): its sessions die with it. */
    @Override
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Asks the server to stop (SIGTERM) and waits for it; returns whether it exited within the bound. */
    @Override
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    @Override
    public long jvmPid() {
        return process.pid();
    }

    @Override
    public String threadDump() throws IOException, InterruptedException {
        return ServerProcess.threadDump(process.pid());
    }

    public int httpPort() {
        return httpPort;
    }

    @Override
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
}
