package io.objectstreams.examples.helpdesk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mvn -Prun package}: an embedded PostgreSQL on port 15433 and the help desk on Payara Micro, at
 * {@code http://localhost:8080/help-desk/} (port: {@code -Drun.port}). Stops both on Ctrl-C.
 */
public final class HelpDeskLauncher {

    private HelpDeskLauncher() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        HelpDeskDatabase.start();
        HelpDeskDatabase.writePostBootCommands();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-jar", System.getProperty("payara.microJar"),
                "--deploy", System.getProperty("helpdesk.war"), "--contextroot", "help-desk",
                "--port", System.getProperty("helpdesk.port", "8080"),
                "--addLibs", System.getProperty("helpdesk.driver"),
                "--postbootcommandfile", System.getProperty("helpdesk.postboot"), "--nocluster"));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put("HELPDESK_DB_PORT", HelpDeskDatabase.setting("port", "15433"));
        Process server = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.destroy();
            HelpDeskDatabase.stop();
        }));
        System.out.println("Help desk starting: http://localhost:" + System.getProperty("helpdesk.port", "8080")
                + "/help-desk/ (alice/alice-pw and carol/carol-pw: Acme; bob/bob-pw: Globex; root/root-pw: admin)");
        System.exit(server.waitFor());
    }
}
