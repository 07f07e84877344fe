package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.feed.ListenerSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The listener's settings, above all the rules between its keys. */
class ListenerSettingsTest {

    private static ListenerSettings of(String... keysAndValues) {
        Map<String, String> values = new HashMap<>(Map.of("streams.listener.url", "jdbc:postgresql://db/store"));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return ListenerSettings.from(ConfigValues.of(values), "object_streams_events");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        ListenerSettings settings = of();
        assertThat(settings.cursorChannel()).isEqualTo("object_streams_cursors");
        assertThat(settings.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.retryDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.maxRetryDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.maxRetries()).isEqualTo(-1);
        assertThat(settings.batchSize()).isEqualTo(1000);
        assertThat(settings.deadSessionTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.coalesceWindow()).isEqualTo(Duration.ofMillis(10));
        assertThat(settings.user()).isNull();
        assertThat(settings.password()).isNull();
    }

    @Test
    void theUrlIsRequired() {
        assertThatThrownBy(() -> ListenerSettings.from(ConfigValues.of(Map.of()), "object_streams_events"))
                .isInstanceOf(StreamsException.class).hasMessageContaining("streams.listener.url")
                .hasMessageContaining("required");
    }

    @Test
    void aDeadSessionTimeoutBelowThreePollIntervalsIsRefused() {
        assertThatThrownBy(() -> of("streams.listener.poll-interval", "5s", "streams.listener.dead-session-timeout", "14s"))
                .isInstanceOf(StreamsException.class).hasMessageContaining("streams.listener.dead-session-timeout")
                .hasMessageContaining("three poll intervals");
        assertThat(of("streams.listener.poll-interval", "5s", "streams.listener.dead-session-timeout", "15s")
                .deadSessionTimeout()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void theDefaultDeadSessionTimeoutGrowsWithThePollInterval() {
        assertThat(of("streams.listener.poll-interval", "20s").deadSessionTimeout()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void theCoalesceWindowIsZeroOrAtMostAHundredMilliseconds() {
        assertThat(of("streams.listener.coalesce-window", "0").coalesceWindow()).isZero();
        assertThat(of("streams.listener.coalesce-window", "100ms").coalesceWindow()).isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> of("streams.listener.coalesce-window", "101ms"))
                .isInstanceOf(StreamsException.class).hasMessageContaining("streams.listener.coalesce-window")
                .hasMessageContaining("at most 100 ms");
        assertThatThrownBy(() -> of("streams.listener.coalesce-window", "-1ms"))
                .isInstanceOf(StreamsException.class).hasMessageContaining("streams.listener.coalesce-window");
    }

    @Test
    void theCursorChannelMustDifferFromTheNotifyChannel() {
        assertThatThrownBy(() -> of("streams.cursor-channel", "object_streams_events"))
                .hasMessageContaining("streams.cursor-channel").hasMessageContaining("streams.notify-channel");
    }

    @Test
    void theLongestRetryDelayIsNotShorterThanTheFirst() {
        assertThatThrownBy(() -> of("streams.listener.retry-delay", "10s", "streams.listener.max-retry-delay", "5s"))
                .hasMessageContaining("streams.listener.max-retry-delay");
    }

    @Test
    void thePasswordIsTakenAsGiven() {
        assertThat(of("streams.listener.password", " secret ").password()).isEqualTo(" secret ");
        assertThat(of("streams.listener.password", " secret ").toString()).doesNotContain("secret");
    }
}
