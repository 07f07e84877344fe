package io.objectstreams.it.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.ServerProcess;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import jakarta.json.JsonObject;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * G7: delivery is never on the assigner's path. Two instances on one database; on the assigner's node the
 * model's visibility policy sleeps 2 s per query, as a slow policy or an exhausted pool would. The other node's
 * write-to-event latency must stay far below that, and the slow node still delivers everything, late.
 */
class SlowNodeIT {

    private static final int WRITES = 30;
    private static final long POLICY_DELAY_MILLIS = 2_000;

    @Test
    void aSlowPolicyOnTheAssignersNodeDelaysNeitherAssignmentNorTheOtherNode() throws Exception {
        File archive = Deployments.storeFile("slow-node");
        try (ServerProcess first = ServerProcess.start("slow-first", archive, Map.of());
             ServerProcess second = ServerProcess.start("slow-second", archive, Map.of())) {
            first.awaitStarted(Duration.ofMinutes(3));
            second.awaitStarted(Duration.ofMinutes(3));
            await().atMost(Duration.ofSeconds(30)).until(() -> List.of(first.role(), second.role())
                    .containsAll(List.of("assigner", "follower")));
            ServerProcess assigner = first.role().equals("assigner") ? first : second;
            ServerProcess follower = assigner == first ? second : first;
            StoreClient writer = StoreClient.as("alice", follower.deployment());
            String note = writer.post("api/it/capture/non-streamed", null).object().getString("result");
            String subscribe = "{\"op\":\"subscribe\",\"model\":\"ItNote\",\"pk\":\"" + note + "\"}";

            try (StreamClient slowSide = StreamClient.connect(assigner.deployment(), "alice");
                 StreamClient fastSide = StreamClient.connect(follower.deployment(), "alice")) {
                assertThat(slowSide.send(subscribe).next().getString("type")).isEqualTo("subscribed");
                assertThat(fastSide.send(subscribe).next().getString("type")).isEqualTo("subscribed");
                StoreClient.as("alice", assigner.deployment())
                        .post("api/it/visibility-fault?delayMillis=" + POLICY_DELAY_MILLIS, null);

                List<Long> latencies = new ArrayList<>();
                long lastCursor = 0;
                for (int i = 0; i < WRITES; i++) {
                    long start = System.nanoTime();
                    writer.post("api/it/capture/publish-after-native-update?id=" + note, null);
                    JsonObject event = fastSide.next();
                    latencies.add((System.nanoTime() - start) / 1_000_000);
                    assertThat(event.getString("type")).isEqualTo("event");
                    lastCursor = event.getJsonNumber("cursor").longValue();
                    Thread.sleep(50);
                }
                Collections.sort(latencies);
                System.out.printf("[slow-node] follower write->event ms: p50 %d, max %d; policy delay on the assigner's"
                        + " node %d ms%n", latencies.get(WRITES / 2), latencies.get(WRITES - 1), POLICY_DELAY_MILLIS);
                assertThat(latencies.get(WRITES - 1)).as("the follower's worst write->event latency, ms")
                        .isLessThan(POLICY_DELAY_MILLIS / 2);
                assertThat(Health.listener(assigner.healthRoot(), "live").number("lastAssignedCursor"))
                        .as("assignment kept pace on the slow node").isGreaterThanOrEqualTo(lastCursor);

                // The slow node is late, not lossy: its client gets every event, in order.
                StoreClient.as("alice", assigner.deployment()).post("api/it/visibility-fault?delayMillis=0", null);
                long previous = 0;
                for (int i = 0; i < WRITES; i++) {
                    JsonObject event = slowSide.poll(60);
                    assertThat(event).as("event %d on the slow node", i + 1).isNotNull();
                    assertThat(event.getString("type")).isEqualTo("event");
                    assertThat(event.getJsonNumber("cursor").longValue()).isGreaterThan(previous);
                    previous = event.getJsonNumber("cursor").longValue();
                }
                assertThat(previous).isEqualTo(lastCursor);
            }
        }
    }
}
