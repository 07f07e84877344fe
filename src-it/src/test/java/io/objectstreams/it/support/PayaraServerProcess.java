package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The {@link ServerProcess} of the {@code payara-server} execution: the EAR (or a WAR) deployed with {@code asadmin}
 * into a Payara Server domain. A server with settings of its own ({@code env}) is a domain of its own
 * ({@code streams-it-<name>}, about a minute to create and start here); without, the application is deployed as
 * {@code object-streams-<name>} into the domain the execution shares ({@link PayaraServerDomain#shared()}), and
 * {@link #log()} is that domain's log from the moment of the deployment on.
 */
public final class PayaraServerProcess implements ServerProcess {

    private final PayaraServerDomain domain;
    private final boolean own;
    private final String application;
    private final long logStart;
    private boolean deployed;

    private PayaraServerProcess(PayaraServerDomain domain, boolean own, String application, long logStart) {
        this.domain = domain;
        this.own = own;
        this.application = application;
        this.logStart = logStart;
    }

    /**
     * Deploys {@code archive}, with {@code env} in the server's environment; a deployment that fails leaves the
     * server running, with the failure in its log, as a failed deployment leaves a server.
     */
    static PayaraServerProcess start(String name, File archive, Map<String, String> env) {
        PayaraServerProcess server;
        try {
            if (env.isEmpty()) {
                PayaraServerDomain domain = PayaraServerDomain.shared();
                long start = Files.exists(domain.log()) ? Files.size(domain.log()) : 0;
                server = new PayaraServerProcess(domain, false, "object-streams-" + name, start);
            } else {
                server = new PayaraServerProcess(PayaraServerDomain.start(Path.of(required("payara.home")),
                        "streams-it-" + name, new File(required("streams.it.driver")), jvmOptions(), env), true,
                        "object-streams", 0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start a Payara Server domain", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        try {
            server.domain.deploy(archive, server.application);
            server.deployed = true;
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
        server.undeploy();
        return server;
    }

    /** {@code asadmin deploy} returns when the deployment is done, failed or not. */
    @Override
    public PayaraServerProcess awaitStarted(Duration timeout) {
        return this;
    }

    private void undeploy() {
        try {
            domain.undeploy(application);
            deployed = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String log() {
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(domain.log().toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, file.length() - logStart)];
            file.seek(logStart);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (java.io.FileNotFoundException e) {
            return "";
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
        requireOwnDomain();
        ProcessHandle.of(jvmPid()).ifPresent(jvm -> {
            jvm.destroyForcibly();
            jvm.onExit().join();
        });
    }

    @Override
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
        requireOwnDomain();
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

    /** Deletes a domain of its own; in the shared domain, undeploys what it deployed and leaves the domain. */
    @Override
    public void close() throws InterruptedException {
        if (!own) {
            if (deployed) {
                undeploy();
            }
            return;
        }
        try {
            domain.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Killing or stopping the server is for a domain of its own: the shared one serves the other classes. */
    private void requireOwnDomain() {
        if (!own) {
            throw new UnsupportedOperationException("the shared Payara Server domain is not stopped by a test;"
                    + " start the server with settings of its own");
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set; run through Maven");
        }
        return value;
    }

    /**
     * A domain of its own keeps Payara's 512 MB heap, with the test suites' JIT options
     * ({@link ServerProcess#jitOptions()}).
     */
    private static String jvmOptions() {
        List<String> jit = ServerProcess.jitOptions();
        return jit.isEmpty() ? "" : "-Xmx512m " + String.join(" ", jit);
    }
}
