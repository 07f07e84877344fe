package io.objectstreams.it.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** G14: a setting that cannot work stops deployment, with a message naming the key. */
class InvalidConfigurationIT {

    @Test
    void invalidNotifyChannelFailsDeploymentNamingTheKey() throws Exception {
        // MicroProfile Config maps streams.notify-channel to the environment variable STREAMS_NOTIFY_CHANNEL.
        try (ServerProcess server = ServerProcess.start("invalid-channel", Deployments.storeFile("invalid-channel"),
                Map.of("STREAMS_NOTIFY_CHANNEL", "not-a-valid-identifier"))) {
            server.awaitStarted(Duration.ofMinutes(3));

            assertThat(server.log())
                    .contains("streams.notify-channel")
                    .contains("'not-a-valid-identifier' is not a valid unquoted PostgreSQL identifier");
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(server.root().resolve("/store/api/orders"))
                            .timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("the application must not be serving").isEqualTo(404);
        }
    }

    @Test
    void theRetiredQueueCountKeyFailsDeploymentNamingItsReplacement() throws Exception {
        try (ServerProcess server = ServerProcess.start("retired-key", Deployments.storeFile("retired-key"),
                Map.of("STREAMS_WEBSOCKET_OUTBOUND_QUEUE", "5000"))) {
            server.awaitStarted(Duration.ofMinutes(3));

            assertThat(server.log())
                    .contains("streams.websocket.outbound-queue is no longer read")
                    .contains("streams.outbound.max-connection-bytes");
        }
    }

    @Test
    void anEntityConfiguredForBothCapturePathsFailsDeploymentNamingItAndBoth() throws Exception {
        // ItTwinT says @Streamed(capture = TRIGGER); the setting says the listener: every write would be captured twice.
        try (ServerProcess server = ServerProcess.start("both-paths", Deployments.storeFile("both-paths"),
                Map.of("STREAMS_CAPTURE_ITTWINT", "listener"))) {
            server.awaitStarted(Duration.ofMinutes(3));

            assertThat(server.log())
                    .contains("io.objectstreams.it.support.server.ItTwinT is configured for both capture paths")
                    .contains("@Streamed(capture = TRIGGER)")
                    .contains("=listener");
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(server.root().resolve("/store/api/orders"))
                            .timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("the application must not be serving").isEqualTo(404);
        }
    }
}
