package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Server 6 domain driven with {@code asadmin}: created with its own port base, given the PostgreSQL
 * driver and a validating connection pool published as the JDBC resource {@code jdbc/store} (the name the
 * demo looks up), started with the test database's environment, and deleted again at the end (its
 * {@code server.log} is kept under {@code target/payara-server-logs}).
 */
public final class PayaraServerDomain implements AutoCloseable {

    private final Path home;
    private final String name;
    private final int portBase;
    private final Map<String, String> env;

    private PayaraServerDomain(Path home, String name, int portBase, Map<String, String> env) {
        this.home = home;
        this.name = name;
        this.portBase = portBase;
        this.env = env;
    }

    /**
     * The shared domain's heap (Payara's default is 512 MB; WildFly's tests get 768 MB too), and the test suites' JIT
     * options ({@link ServerProcess#jitOptions()}): the domain deploys one archive per test class, and on two cores
     * the full JIT's compiles of each deployment cost more than they win back.
     */
    public static final String JVM_OPTIONS = String.join(" ", "-Xmx768m", String.join(" ", ServerProcess.jitOptions()))
            .trim();

    private static PayaraServerDomain shared;

    /**
     * The one domain ({@code streams-it}) the {@code payara-server} execution shares between test classes: the
     * Arquillian container deploys into it, and so do the process-based classes that need no settings of their
     * own. Started by whichever asks first; stopped by {@link #stopShared()} (the container's stop) or at exit.
     */
    public static synchronized PayaraServerDomain shared() throws IOException, InterruptedException {
        if (shared == null) {
            shared = start(Path.of(required("payara.home")), "streams-it", new File(required("streams.it.driver")),
                    JVM_OPTIONS, Map.of());
            PayaraServerDomain started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                synchronized (PayaraServerDomain.class) {
                    if (shared == started) {
                        try {
                            stopShared();
                        } catch (IOException | InterruptedException e) {
                            System.err.println("[payara-server] could not stop the shared domain: " + e);
                        }
                    }
                }
            }, "stop-payara-server-domain"));
        }
        return shared;
    }

    /** Stops and deletes the shared domain, if it runs. */
    public static synchronized void stopShared() throws IOException, InterruptedException {
        if (shared != null) {
            PayaraServerDomain domain = shared;
            shared = null;
            domain.close();
        }
    }

    /**
     * Creates, configures and starts the domain {@code name} in the Payara Server at {@code home}.
     *
     * @param jvmOptions options that replace the domain's default {@code -Xmx512m} (blank: keep it)
     * @param env        added to the test database's settings in the environment the domain's JVM inherits
     */
    public static PayaraServerDomain start(Path home, String name, File driverJar, String jvmOptions,
                                           Map<String, String> env) throws IOException, InterruptedException {
        try {
            return startOnce(home, name, driverJar, jvmOptions, env);
        } catch (IllegalStateException failed) {
            // Once in CI (2026-12-06) start-domain waited its 600 s for a DAS that never answered, and the same domain
            // started at once a minute later: most likely a port of the base taken meanwhile (the bases lie in the
            // ephemeral range). One more try, on a new base, before the classes fail.
            System.err.println("[payara-server] starting " + name + " failed, trying once more on new ports: "
                    + failed);
            return startOnce(home, name, driverJar, jvmOptions, env);
        }
    }

    private static PayaraServerDomain startOnce(Path home, String name, File driverJar, String jvmOptions,
                                                Map<String, String> env) throws IOException, InterruptedException {
        // A domain's ports are its base plus fixed offsets (admin +48, http +80, https +81, iiop, jms, jmx ...).
        PayaraServerDomain domain = new PayaraServerDomain(home.toAbsolutePath(), name,
                Ports.freeBase(20000, 60000, 100, 9, 37, 38, 39, 48, 76, 80, 81, 86), env);
        domain.run("stop-domain", name);
        domain.run("delete-domain", name);
        domain.asadmin("--interactive=false", "create-domain", "--nopassword=true",
                "--portbase", Integer.toString(domain.portBase), name);
        Path dir = domain.directory();
        Path lib = dir.resolve("lib");
        Files.createDirectories(lib);
        Files.copy(driverJar.toPath(), lib.resolve("postgresql.jar"), StandardCopyOption.REPLACE_EXISTING);
        // One server.log for the domain's whole life (the default rotates at 2 MB): tests read it from an offset.
        Path logging = dir.resolve("config/logging.properties");
        Files.writeString(logging, Files.readString(logging, StandardCharsets.UTF_8).replace(
                "GFFileHandler.rotationLimitInBytes=2000000", "GFFileHandler.rotationLimitInBytes=0"),
                StandardCharsets.UTF_8);
        if (jvmOptions != null && !jvmOptions.isBlank()) {
            // The server-config's heap, before the first start (the default-config's stays as it is).
            Path xml = dir.resolve("config/domain.xml");
            String config = Files.readString(xml, StandardCharsets.UTF_8);
            String replaced = config.replaceFirst("<jvm-options>-Xmx512m</jvm-options>",
                    java.util.regex.Matcher.quoteReplacement(String.join("",
                            java.util.Arrays.stream(jvmOptions.trim().split("\\s+"))
                                    .map(o -> "<jvm-options>" + o + "</jvm-options>").toList())));
            Files.writeString(xml, replaced, StandardCharsets.UTF_8);
        }
        domain.asadmin("start-domain", name);
        Map<String, String> db = domain.environment();
        domain.remote("create-jdbc-connection-pool",
                "--datasourceclassname", "org.postgresql.ds.PGSimpleDataSource", "--restype", "javax.sql.DataSource",
                "--isconnectvalidatereq=true", "--validationmethod", "auto-commit", "--failconnection=true",
                "--property", "serverName=" + db.get("STREAMS_DB_HOST") + ":portNumber=" + db.get("STREAMS_DB_PORT")
                        + ":databaseName=" + db.get("STREAMS_DB_NAME") + ":user=" + db.get("STREAMS_DB_USER")
                        + ":password=" + db.get("STREAMS_DB_PASSWORD"),
                "storePool");
        domain.remote("create-jdbc-resource", "--connectionpoolid", "storePool", "jdbc/store");
        return domain;
    }

    /**
     * Deploys {@code archive} as the application {@code application}, a WAR at the context root of its file's name;
     * fails with asadmin's output if it fails.
     */
    public void deploy(File archive, String application) throws IOException, InterruptedException {
        String file = archive.getName();
        if (file.endsWith(".war")) {
            remote("deploy", "--name", application, "--contextroot", file.substring(0, file.length() - 4),
                    "--force=true", archive.getAbsolutePath());
        } else {
            remote("deploy", "--name", application, "--force=true", archive.getAbsolutePath());
        }
    }

    public void undeploy(String application) throws IOException, InterruptedException {
        remote("undeploy", application);
    }

    public int httpPort() {
        return portBase + 80;
    }

    public URI root() {
        return URI.create("http://localhost:" + httpPort() + "/");
    }

    public Path directory() {
        return home.resolve("glassfish/domains/" + name);
    }

    /** The domain's {@code server.log}. */
    public Path log() {
        return directory().resolve("logs/server.log");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("stop-domain", name);
        Path logs = directory().resolve("logs");
        if (Files.isDirectory(logs)) {
            Path kept = Files.createDirectories(Path.of("target", "payara-server-logs", name));
            try (var files = Files.list(logs)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    Files.copy(file, kept.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        run("delete-domain", name);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set; run through Maven");
        }
        return value;
    }

    private Map<String, String> environment() {
        Map<String, String> all = new HashMap<>(TestDatabase.serverEnvironment());
        all.putAll(env);
        return all;
    }

    private void remote(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("--port", Integer.toString(portBase + 48)));
        command.addAll(List.of(args));
        asadmin(command.toArray(String[]::new));
    }

    private void asadmin(String... args) throws IOException, InterruptedException {
        Result result = run(args);
        if (result.exit() != 0) {
            throw new IllegalStateException("asadmin " + String.join(" ", args) + " failed (" + result.exit() + "):\n"
                    + result.output());
        }
    }

    private record Result(int exit, String output) {
    }

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/asadmin").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // The domain's JVM inherits this environment (start-domain): the demo configuration builds the listener's
        // URL from it, and the suite's STREAMS_* settings reach MicroProfile Config the same way.
        builder.environment().putAll(environment());
        builder.environment().put("AS_JAVA", System.getProperty("java.home"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return new Result(-1, output + "\n(timed out)");
        }
        return new Result(process.exitValue(), output);
    }
}
