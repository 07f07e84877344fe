package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A WildFly server (the build's configured copy) started as a process with its own base directory and port
 * offset, deploying an archive through its deployment scanner.
 */
public final class WildFlyProcess implements ServerProcess {

    private final Process process;
    private final Path base;
    private final Path deployed;
    private final int offset;

    private WildFlyProcess(Process process, Path base, Path deployed, int offset) {
        this.process = process;
        this.base = base;
        this.deployed = deployed;
        this.offset = offset;
    }

    /** An entry of a start's {@code env} that is not passed on but appended to the server JVM's options. */
    public static final String EXTRA_JAVA_OPTS = "STREAMS_IT_EXTRA_JAVA_OPTS";

    static WildFlyProcess start(String name, File archive, Map<String, String> env) {
        return start(name, archive, env, Ports.freeBase(1000, 20000, 1, 8080, 9990, 8443, 9993));
    }

    /** Starts WildFly with every port moved by {@code offset} (0: HTTP on 8080, management and health on 9990). */
    public static WildFlyProcess start(String name, File archive, Map<String, String> env, int offset) {
        try {
            Path home = Path.of(required("jboss.home"));
            Path base = Path.of("target", "wildfly-" + name).toAbsolutePath();
            deleteTree(base);
            // Only the (configured) configuration: logs, data and deployments of other runs stay behind.
            copyTree(home.resolve("standalone/configuration"), base.resolve("configuration"));
            deleteTree(base.resolve("configuration/standalone_xml_history"));
            Files.createDirectories(base.resolve("deployments"));
            Path deployed = base.resolve("deployments").resolve("object-streams.ear");
            Files.copy(archive.toPath(), deployed, StandardCopyOption.REPLACE_EXISTING);
            // Every port derives from 8080, 9990, 8443 or 9993 plus the offset.
            Map<String, String> db = new java.util.HashMap<>(TestDatabase.serverEnvironment());
            env.forEach((key, value) -> db.computeIfPresent(key, (k, old) -> value));
            List<String> command = new java.util.ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.socket.binding.port-offset=" + offset,
                    "-Dstreams.db.host=" + db.get("STREAMS_DB_HOST"),
                    "-Dstreams.db.port=" + db.get("STREAMS_DB_PORT"),
                    "-Dstreams.db.name=" + db.get("STREAMS_DB_NAME"),
                    "-Dstreams.db.user=" + db.get("STREAMS_DB_USER"),
                    "-Dstreams.db.password=" + db.get("STREAMS_DB_PASSWORD"),
                    "-Dstreams.datasource=java:/jdbc/store"));
            String openFiles = env.get(ServerProcess.OPEN_FILES);
            if (openFiles != null) {
                command.addAll(0, List.of("bash", "-c", "ulimit -n " + Integer.parseInt(openFiles) + " && exec \"$@\"", "--"));
            }
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(base.resolve("console.log").toFile());
            builder.environment().putAll(db);
            builder.environment().putAll(env);
            builder.environment().put("JBOSS_HOME", home.toString());
            builder.environment().remove(EXTRA_JAVA_OPTS);
            List<String> options = new ArrayList<>(ServerProcess.memoryOptions());
            options.addAll(ServerProcess.jitOptions());
            builder.environment().put("JAVA_OPTS", String.join(" ", options) + " " + env.getOrDefault(EXTRA_JAVA_OPTS, ""));
            return new WildFlyProcess(builder.start(), base, deployed, offset);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start WildFly", e);
        }
    }

    @Override
    public WildFlyProcess awaitStarted(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String log = log();
            if (log.contains("WFLYSRV0025") || log.contains("WFLYSRV0026") || !process.isAlive()) {
                return this;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("WildFly did not start within " + timeout + "; log:\n" + log());
    }

    /** Removes the archive from the scanned folder; the scanner undeploys it while the server keeps running. */
    void undeploy(Duration timeout) throws InterruptedException {
        try {
            Files.delete(deployed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitLog("WFLYSRV0009", timeout);
    }

    @Override
    public String log() {
        Path log = base.resolve("log/server.log");
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public URI root() {
        return URI.create("http://localhost:" + (8080 + offset) + "/");
    }

    @Override
    public URI healthRoot() {
        return URI.create("http://localhost:" + (9990 + offset) + "/");
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    /** standalone.sh runs the JVM as its child: signals go to the whole tree. */
    @Override
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
    }

    @Override
    public boolean stopGracefully(Duration timeout) throws InterruptedException {
        List<ProcessHandle> jvms = process.descendants().toList();
        jvms.forEach(ProcessHandle::destroy);
        process.destroy();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle jvm : jvms) {
            while (jvm.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        }
        return jvms.stream().noneMatch(ProcessHandle::isAlive)
                && process.waitFor(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
    }

    @Override
    public long jvmPid() {
        return process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                .findFirst().map(ProcessHandle::pid).orElseThrow(() -> new IllegalStateException("no WildFly JVM"));
    }

    @Override
    public String threadDump() throws IOException, InterruptedException {
        return ServerProcess.threadDump(jvmPid());
    }

    @Override
    public void close() throws InterruptedException {
        if (!stopGracefully(Duration.ofSeconds(30))) {
            kill();
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set; run through Maven");
        }
        return value;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }
}
