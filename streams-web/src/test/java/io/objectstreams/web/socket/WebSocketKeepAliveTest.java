package io.objectstreams.web.socket;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WebSocketKeepAliveTest {

    @Test
    void connectionsOpenedTogetherHaveTheirFirstPingsSpreadOverTheInterval() {
        long interval = Duration.ofSeconds(30).toNanos();
        long opened = 1_000_000_000L;
        int[] perTenth = new int[10];
        for (int i = 0; i < 10_000; i++) {
            long first = WebSocketKeepAlive.firstPing(opened, interval);
            assertThat(first - opened).as("within the first interval, never at once").isBetween(1L, interval);
            perTenth[(int) Math.min(9, (first - opened - 1) * 10 / interval)]++;
        }
        // 1,000 expected in each tenth; 500 and 1,500 are more than 16 standard deviations away.
        assertThat(Arrays.stream(perTenth).boxed().toList()).allSatisfy(count -> assertThat(count).isBetween(500, 1_500));
    }

    @Test
    void noIntervalMeansNoOffset() {
        assertThat(WebSocketKeepAlive.firstPing(42, 0)).isEqualTo(42);
    }
}
