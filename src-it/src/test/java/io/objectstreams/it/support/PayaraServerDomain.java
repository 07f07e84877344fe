package io.objectstreams.it.support;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Payara Server 6 domain driven with {@code asadmin}: created with its own port base, given the PostgreSQL
 * driver and a validating connection pool published as the JDBC resource {@code jdbc/store} (the name the
 * demo looks up), started with the test database's environment, and deleted again at the end.
 */
public final class PayaraServerDomain implements AutoCloseable {

    private static final String DOMAIN = "streams-it";

    private final Path home;
    private final int portBase;

    private PayaraServerDomain(Path home, int portBase) {
        this.home = home;
        this.portBase = portBase;
    }

    /** Creates, configures and starts the domain. */
    public static PayaraServerDomain start(File driverJar) throws IOException, InterruptedException {
        Path home = Path.of(required("payara.home")).toAbsolutePath();
        // A domain's ports are its base plus fixed offsets (admin +48, http +80, https +81, iiop, jms, jmx ...).
        PayaraServerDomain domain = new PayaraServerDomain(home,
                Ports.freeBase(20000, 60000, 100, 9, 37, 38, 39, 48, 76, 80, 81, 86));
        domain.run("stop-domain", DOMAIN);
        domain.run("delete-domain", DOMAIN);
        domain.asadmin("--interactive=false", "create-domain", "--nopassword=true",
                "--portbase", Integer.toString(domain.portBase), DOMAIN);
        Path lib = home.resolve("glassfish/domains/" + DOMAIN + "/lib");
        Files.createDirectories(lib);
        Files.copy(driverJar.toPath(), lib.resolve("postgresql.jar"), StandardCopyOption.REPLACE_EXISTING);
        domain.asadmin("start-domain", DOMAIN);
        Map<String, String> db = TestDatabase.serverEnvironment();
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

    public void deploy(File archive) throws IOException, InterruptedException {
        remote("deploy", "--name", "object-streams", archive.getAbsolutePath());
    }

    public URI root() {
        return URI.create("http://localhost:" + (portBase + 80) + "/");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("stop-domain", DOMAIN);
        run("delete-domain", DOMAIN);
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
        // The domain's JVM inherits this environment: the demo configuration builds the listener's URL from it.
        builder.environment().putAll(TestDatabase.serverEnvironment());
        builder.environment().put("AS_JAVA", System.getProperty("java.home"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return new Result(-1, output + "\n(timed out)");
        }
        return new Result(process.exitValue(), output);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException(property + " is not set; run through Maven");
        }
        return value;
    }
}
