package io.objectstreams.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The asadmin commands that give a Payara Micro server the demo's datasource: a validating pool on the test
 * database, published as the JDBC resource {@code jdbc/store}, exactly as on Payara Server. Payara Micro
 * runs them at boot ({@code --postbootcommandfile}), before the application deploys.
 */
public final class MicroResources {

    private MicroResources() {
    }

    /** Writes the commands to {@code file}; with {@code xa} the pool uses {@code PGXADataSource}. */
    public static Path writePostBootCommands(Path file, boolean xa) {
        return writePostBootCommands(file, xa, 32);
    }

    /** As {@link #writePostBootCommands(Path, boolean)}, with a pool of at most {@code maxPool} connections. */
    public static Path writePostBootCommands(Path file, boolean xa, int maxPool) {
        return writePostBootCommands(file, xa, maxPool, Map.of());
    }

    /**
     * As {@link #writePostBootCommands(Path, boolean, int)}, with database settings ({@code STREAMS_DB_USER} and the
     * like) overridden by {@code overrides}.
     */
    public static Path writePostBootCommands(Path file, boolean xa, int maxPool, Map<String, String> overrides) {
        Map<String, String> db = new java.util.HashMap<>(TestDatabase.serverEnvironment());
        overrides.forEach((key, value) -> db.computeIfPresent(key, (k, old) -> value));
        String commands = "create-jdbc-connection-pool"
                + (xa ? " --datasourceclassname org.postgresql.xa.PGXADataSource --restype javax.sql.XADataSource"
                      : " --datasourceclassname org.postgresql.ds.PGSimpleDataSource --restype javax.sql.DataSource")
                + " --isconnectvalidatereq=true --validationmethod auto-commit --failconnection=true"
                + " --steadypoolsize " + Math.min(2, maxPool) + " --maxpoolsize " + maxPool
                + " --property serverName=" + db.get("STREAMS_DB_HOST") + ":portNumber=" + db.get("STREAMS_DB_PORT")
                + ":databaseName=" + db.get("STREAMS_DB_NAME") + ":user=" + db.get("STREAMS_DB_USER")
                + ":password=" + db.get("STREAMS_DB_PASSWORD") + " storePool\n"
                + "create-jdbc-resource --connectionpoolid storePool jdbc/store\n";
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, commands);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The commands for this test JVM's Arquillian container, at {@code streams.it.micro.postboot}. */
    static void writeForArquillian() {
        String path = System.getProperty("streams.it.micro.postboot");
        if (path != null) {
            writePostBootCommands(Path.of(path), Boolean.getBoolean("streams.it.xa"));
        }
    }
}
