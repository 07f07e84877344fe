package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A Payara Server domain of its own ({@link PayaraServerDomain}, named {@code streams-it-<name>}) deploying the EAR
 * with {@code asadmin}: the {@link ServerProcess} of the {@code payara-server} execution. Starting one costs a domain
 * (about a minute here), so that execution runs only the process-based classes that need no more than one.
 */
public final class PayaraServerProcess implements ServerProcess {

    static final String APPLICATION = "object-streams";

    private final PayaraServerDomain domain;

    private PayaraServerProcess(PayaraServerDomain domain) {
        this.domain = domain;
    }

    /**
     * Creates and starts the domain with {@code env} in its environment and deploys {@code archive}; a deployment
     * that fails leaves the domain running, with the failure in its log, as a failed deployment leaves a server.
     */
    static PayaraServerProcess start(String name, File archive, Map<String, String> env) {
        PayaraServerDomain domain;
        try {
            domain = PayaraServerDomain.start(Path.of(required("payara.home")), "streams-it-" + name,
                    new File(required("streams.it.driver")), "", env);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start a Payara Server domain", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        PayaraServerProcess server = new PayaraServerProcess(domain);
        try {
            domain.deploy(archive, APPLICATION);
        } catch (IllegalStateException failed) {
            System.err.println("[payara-server] " + failed.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return server;
    }

    /** Deploys, lets the listener take the assigner role, then undeploys with {@code asadmin undeploy}. */
    static ServerProcess startUndeployed(String name, File archive, Duration timeout) throws InterruptedException {
        PayaraServerProcess server = start(name, archive, Map.of());
        server.awaitLog("Object Streams listener holds the assigner role", timeout);
        try {
            server.domain.undeploy(APPLICATION);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return server;
    }

    /** {@code asadmin deploy} returns when the deployment is done, failed or not. */
    @Override
    public PayaraServerProcess awaitStarted(Duration timeout) {
        return this;
    }

    @Override
    public String log() {
        try {
            return Files.exists(domain.log()) ? Files.readString(domain.log(), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public URI root() {
        return domain.root();
    }

    /** Payara Server serves MicroProfile Health on its HTTP listener. */
    @Override
    public URI healthRoot() {
        return domain.root();
    }

    @Override
    public boolean isAlive() {
        return ProcessHandle.of(jvmPid()).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public void kill() throws InterruptedException {
        ProcessHandle.of(jvmPid()).ifPresent(jvm -> {
            jvm.destroyForcibly();
            jvm.onExit().join();
        });
    }

    @Override
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
        ProcessHandle jvm = ProcessHandle.of(jvmPid()).orElse(null);
        if (jvm == null) {
            return true;
        }
        jvm.destroy();
        try {
            jvm.onExit().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /** The domain's JVM, from the pid file {@code start-domain} writes. */
    @Override
    public long jvmPid() {
        try {
            return Long.parseLong(Files.readString(domain.directory().resolve("config/pid")).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String threadDump() throws IOException, InterruptedException {
        return ServerProcess.threadDump(jvmPid());
    }

    @Override
    public void close() throws InterruptedException {
        try {
            domain.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set; run through Maven");
        }
        return value;
    }
}
