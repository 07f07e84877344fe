package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Auth;
import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.StreamClientOptions;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server refuses connections with {@code connection_limit_exceeded} before its process runs out (issue 42). Under a
 * low open-file limit it says at deployment that {@code streams.connections.max} cannot be held, never meets "Too many
 * open files", and its readiness keeps answering within a second while it holds all it can. With its heap above the
 * configured share after a collection, it refuses new connections and keeps answering too.
 */
class ProcessLimitsIT {

    private static final int OPEN_FILES = 2048;
    private static final int RESERVED = 200;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void connectionsPastTheOpenFileLimitAreRefusedAndReadinessKeepsAnswering() throws Exception {
        List<StreamClient> held = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start("file-limit", Deployments.storeFile("file-limit"), Map.of(
                ServerProcess.OPEN_FILES, Integer.toString(OPEN_FILES),
                "STREAMS_CONNECTIONS_RESERVED_FILES", Integer.toString(RESERVED),
                // Three users share the connections: each may hold all of them.
                "STREAMS_CONNECTIONS_MAX_PER_PRINCIPAL", Integer.toString(OPEN_FILES)))) {
            server.awaitStarted(Duration.ofMinutes(3));
            assertThat(server.log()).contains("streams.connections.max=10000 cannot be held: this process may open "
                    + OPEN_FILES + " files");
            long openBefore = openFiles(server.jvmPid());
            URI ws = URI.create(server.root().toString().replaceFirst("^http", "ws")).resolve("store/streams/ws");
            int refused = 0;
            String refusal = null;
            for (int i = 0; i < OPEN_FILES && refused < 20; i++) {
                String user = List.of("alice", "bob", "carol").get(i % 3);
                StreamClient probe = StreamClient.open(ws, probeOf(user));
                // Not awaited: a refused connection may be closed before the frame goes out.
                probe.sendAsync("{\"op\":\"unsubscribe\",\"subscription_id\":\"probe\"}");
                JsonObject reply = probe.first(Duration.ofSeconds(10));
                if ("not_subscribed".equals(reply.getString("code", null))) {
                    held.add(probe);
                } else {
                    assertThat(reply.getString("code", null)).as(reply.toString()).isEqualTo("connection_limit_exceeded");
                    refused++;
                    refusal = reply.getString("message");
                    assertThat(reply.getJsonObject("details").getString("setting"))
                            .isEqualTo("streams.connections.reserved-files");
                }
            }
            assertThat(refused).as("connections refused under a limit of %d files", OPEN_FILES).isEqualTo(20);
            assertThat(refusal).contains("open-file limit").contains("streams.connections.reserved-files")
                    .doesNotContain(Integer.toString(OPEN_FILES));
            // Everything the limit leaves room for once the server's own files and the reserve are set aside; the
            // server counts its own files itself, a few more or less than this count of them taken before.
            assertThat((long) held.size()).isBetween(OPEN_FILES - openBefore - RESERVED - 100, OPEN_FILES - openBefore - RESERVED + 50);
            assertThat(server.log()).contains("Object Streams refuses connections past ");
            long started = System.nanoTime();
            HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(server.healthRoot().resolve("/health/ready"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
            assertThat(millis).as("readiness at the limit answered in %d ms", millis).isLessThan(1_000);
            assertThat(server.log()).doesNotContain("Too many open files");
            started = System.nanoTime();
            JsonObject refusals = adminStatus(server).getJsonObject("refusals");
            long statusMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(statusMillis).as("admin status at the limit answered in %d ms", statusMillis).isLessThan(1_000);
            assertThat(refusals.getJsonObject("bySetting").getInt("streams.connections.reserved-files"))
                    .as(refusals.toString()).isEqualTo(20);
            assertThat(refusals.getJsonObject("byCode").getInt("connection_limit_exceeded")).isEqualTo(20);
            System.out.printf("[file-limit] %s: limit %d files, %d open before the first connection, %d held, 20 refused"
                    + " (%s), readiness at the limit in %d ms%n", Deployments.server(), OPEN_FILES, openBefore, held.size(),
                    refusal, millis);
        } finally {
            held.forEach(StreamClient::abort);
        }
    }

    @Test
    void aHeapFullAfterACollectionRefusesNewConnections() throws Exception {
        try (ServerProcess server = ServerProcess.start("heap-limit", Deployments.storeFile("heap-limit"), Map.of(
                "STREAMS_CONNECTIONS_MAX_HEAP_PERCENT", "1"))) {
            server.awaitStarted(Duration.ofMinutes(3));
            URI ws = URI.create(server.root().toString().replaceFirst("^http", "ws")).resolve("store/streams/ws");
            // Whatever the application holds is more than 1% of the heap once a full collection has measured it.
            Process gc = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(server.jvmPid()), "GC.run").redirectErrorStream(true).start();
            try {
                assertThat(gc.waitFor(60, TimeUnit.SECONDS)).as("jcmd GC.run within a minute").isTrue();
                assertThat(gc.exitValue()).as(new String(gc.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                        .isZero();
            } finally {
                gc.destroyForcibly();
            }
            StreamClient probe = StreamClient.open(ws, probeOf("alice"));
            JsonObject refused = probe.first(Duration.ofSeconds(10));
            probe.abort();
            assertThat(refused.getString("code", null)).as(refused.toString()).isEqualTo("connection_limit_exceeded");
            assertThat(refused.getString("message")).contains("heap").contains("streams.connections.max-heap-percent");
            assertThat(refused.getJsonObject("details").getString("setting"))
                    .isEqualTo("streams.connections.max-heap-percent");
            assertThat(adminStatus(server).getJsonObject("refusals").getJsonObject("bySetting")
                    .getInt("streams.connections.max-heap-percent")).isEqualTo(1);
            HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(server.healthRoot().resolve("/health/ready"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        }
    }

    /** The admin status, asked as the demo's administrator, within 5 s. */
    private static JsonObject adminStatus(ServerProcess server) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(server.root().resolve("store/streams/admin/status"))
                .header("Authorization", Auth.basic("carol")).timeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> status = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
        try (var reader = Json.createReader(new StringReader(status.body()))) {
            return reader.readObject();
        }
    }

    private static long openFiles(long pid) throws Exception {
        try (var entries = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return entries.count();
        }
    }

    /**
     * A connection of {@code user} on the test's one HTTP client, given 10 s to open: its {@code first} message is
     * kept however many follow, and it reads on.
     */
    private static StreamClientOptions probeOf(String user) {
        return StreamClient.options().http(HTTP).connectTimeout(null).handshakeWait(Duration.ofSeconds(10)).login(user);
    }
}
