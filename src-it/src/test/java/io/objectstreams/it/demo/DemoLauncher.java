package io.objectstreams.it.demo;

import io.objectstreams.it.support.OtlpReceiver;
import io.objectstreams.it.support.PayaraMicroProcess;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.TestDatabase;
import io.objectstreams.it.support.WildFlyProcess;
import java.io.File;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code mvn -Pdemo package}: starts an embedded PostgreSQL and the demo store, prints where to look, and runs
 * until interrupted (Ctrl-C), then stops both. {@code -Ddemo.server=wildfly} runs the EAR on WildFly instead of
 * the WAR on Payara Micro.
 */
public final class DemoLauncher {

    private DemoLauncher() {
    }

    public static void main(String[] args) throws Exception {
        int httpPort = Integer.getInteger("demo.http.port", 8080);
        boolean wildfly = System.getProperty("demo.server", "payara-micro").equals("wildfly");
        TestDatabase.start();
        String name = wildfly ? "WildFly" : "Payara Micro";
        String log = wildfly ? "src-it/target/wildfly-demo/console.log" : "src-it/target/micro-demo/server.log";
        // WildFly exports OpenTelemetry metrics by OTLP push only; the demo receives them itself and shows them.
        OtlpReceiver metrics = wildfly ? OtlpReceiver.start(Integer.getInteger("demo.metrics.port", 9464)) : null;
        ServerProcess server = wildfly
                ? WildFlyProcess.start("demo", new File(System.getProperty("streams.it.ear")), Map.of(
                        WildFlyProcess.EXTRA_JAVA_OPTS, "-Dotel.sdk.disabled=false -Dotel.exporter.otlp.protocol=http/protobuf"
                                + " -Dotel.exporter.otlp.endpoint=" + metrics.endpoint() + " -Dotel.metric.export.interval=5000"
                                + " -Dotel.logs.exporter=none -Dotel.service.name=object-streams-demo"), httpPort - 8080)
                : PayaraMicroProcess.start("demo", httpPort, Map.of());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (metrics != null) {
                    metrics.close();
                }
                TestDatabase.stop();
                stopped.countDown();
            }
        }));
        System.out.println("Starting " + name + " with the demo store (log: " + log + ") ...");
        server.awaitStarted(Duration.ofMinutes(3));
        if (!server.isAlive() || server.log().contains("StreamsException")) {
            System.out.println("The demo failed to start; see " + log);
            System.exit(1);
        }
        String base = "http://localhost:" + httpPort;
        System.out.println();
        System.out.println("Object Streams demo store is running on " + name + ".");
        System.out.println("  Live page: " + base + "/store/   (open it in two windows, signed in as different users)");
        System.out.println("  REST API : " + base + "/store/api/orders   (HTTP Basic: alice/alice-pw, bob/bob-pw, carol/carol-pw)");
        System.out.println("  WebSocket: " + base.replace("http", "ws") + "/store/streams/ws");
        System.out.println("  Client   : " + base + "/store/streams/client/object-streams.js");
        System.out.println("  Admin    : " + base + "/store/streams/admin/status   (carol)");
        System.out.println("  Health   : " + server.healthRoot().resolve("/health"));
        if (metrics != null) {
            System.out.println("  Metrics  : " + metrics.endpoint() + "/metrics   (pushed by WildFly over OTLP every 5 s;"
                    + " names in docs/operations.md)");
        }
        System.out.println("  Database : " + TestDatabase.url() + " (user postgres), table streams_outbox");
        System.out.println("  Try      : curl -u alice:alice-pw -H 'Content-Type: application/json' \\");
        System.out.println("               -d '{\"status\":\"open\",\"total\":12.50}' " + base + "/store/api/orders");
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
    }
}
