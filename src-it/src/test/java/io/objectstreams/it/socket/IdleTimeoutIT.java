package io.objectstreams.it.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StreamClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code streams.websocket.max-idle}: with a timeout, a connection with no traffic either way is closed, and
 * one that talks is not. (The default, 0, keeps idle listeners open: every other WebSocket test runs with it.)
 */
class IdleTimeoutIT {

    @Test
    void aConnectionIdleForMaxIdleIsClosedAndATalkingOneIsNot() throws Exception {
        try (ServerProcess server = ServerProcess.start("idle-timeout", Deployments.storeFile("idle-timeout"),
                Map.of("STREAMS_WEBSOCKET_MAX_IDLE", "2s"))) {
            server.awaitStarted(Duration.ofMinutes(3));
            String subscribe = "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"store.CustomerOrder\"}";
            try (StreamClient idle = StreamClient.connect(server.deployment(), "carol");
                 StreamClient talking = StreamClient.connect(server.deployment(), "carol")) {
                assertThat(idle.send(subscribe).next().getString("type")).isEqualTo("subscribed");
                assertThat(talking.send(subscribe).next().getString("type")).isEqualTo("subscribed");
                long start = System.nanoTime();

                Integer idleClosed = null;
                for (int i = 0; i < 12 && idleClosed == null; i++) {
                    talking.send("{\"op\":\"unsubscribe\",\"subscription_id\":\"nothing\"}");
                    assertThat(talking.next().getString("type")).isEqualTo("error");
                    idleClosed = idle.awaitClosed(Duration.ofMillis(500));
                }

                assertThat(idleClosed).as("the idle connection is closed").isNotNull();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
                assertThat(talking.awaitClosed(Duration.ofMillis(100))).as("the talking one stays open").isNull();
                assertThat(talking.send(subscribe.replace("}", ",\"subscription_id\":\"again\"}")).next().getString("type"))
                        .isEqualTo("subscribed");
            }
        }
    }
}
