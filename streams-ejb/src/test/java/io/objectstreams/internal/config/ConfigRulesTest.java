package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"object_streams_events", "_x", "a1$", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"})
    void acceptsLowerCaseIdentifiersUpTo63Bytes(String channel) {
        assertThat(ConfigRules.channelName("streams.notify-channel", channel)).isEqualTo(channel);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad-name", "1abc", "Events", "a b", "", "x;DROP TABLE y",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"})
    void refusesAnythingElseNamingTheKey(String channel) {
        assertThatThrownBy(() -> ConfigRules.channelName("streams.notify-channel", channel))
                .isInstanceOf(StreamsException.class)
                .hasMessageContaining("streams.notify-channel")
                .extracting(e -> ((StreamsException) e).code()).isEqualTo("invalid_configuration");
    }

    @Test
    void booleansAreTrueOrFalseOnly() {
        assertThat(ConfigRules.bool("k", Optional.empty(), true)).isTrue();
        assertThat(ConfigRules.bool("k", Optional.of("FALSE"), true)).isFalse();
        assertThatThrownBy(() -> ConfigRules.bool("streams.schema.migrate", Optional.of("yes"), true))
                .hasMessageContaining("streams.schema.migrate");
    }

    @Test
    void requiredTextMustBePresent() {
        assertThatThrownBy(() -> ConfigRules.requireText("streams.datasource", Optional.of("  ")))
                .hasMessageContaining("streams.datasource").hasMessageContaining("required");
    }

    @Test
    void durationsTakeUnitsOrIso8601AndMustBePositive() {
        java.time.Duration fallback = java.time.Duration.ofSeconds(1);
        assertThat(ConfigRules.duration("k", Optional.empty(), fallback)).isEqualTo(fallback);
        assertThat(ConfigRules.duration("k", Optional.of("500ms"), fallback)).isEqualTo(java.time.Duration.ofMillis(500));
        assertThat(ConfigRules.duration("k", Optional.of("2m"), fallback)).isEqualTo(java.time.Duration.ofMinutes(2));
        assertThat(ConfigRules.duration("k", Optional.of("PT3S"), fallback)).isEqualTo(java.time.Duration.ofSeconds(3));
        for (String bad : new String[] {"1", "0s", "-1s", "soon", "PT0S"}) {
            assertThatThrownBy(() -> ConfigRules.duration("streams.listener.poll-interval", Optional.of(bad), fallback))
                    .as(bad).hasMessageContaining("streams.listener.poll-interval");
        }
    }

    @Test
    void durationsWhereZeroMeansNeverAcceptZeroButNothingNegativeOrUnreadable() {
        java.time.Duration fallback = java.time.Duration.ZERO;
        assertThat(ConfigRules.durationOrZero("k", Optional.empty(), fallback)).isZero();
        for (String zero : new String[] {"0", "0s", "0ms", "PT0S"}) {
            assertThat(ConfigRules.durationOrZero("k", Optional.of(zero), fallback)).as(zero).isZero();
        }
        assertThat(ConfigRules.durationOrZero("k", Optional.of("90s"), fallback)).isEqualTo(java.time.Duration.ofSeconds(90));
        for (String bad : new String[] {"1", "-1s", "never", "PT-1S"}) {
            assertThatThrownBy(() -> ConfigRules.durationOrZero("streams.websocket.max-idle", Optional.of(bad), fallback))
                    .as(bad).hasMessageContaining("streams.websocket.max-idle").hasMessageContaining("0 or a positive duration");
        }
    }

    @Test
    void aDurationWithAMinimumAcceptsZeroAndTheMinimumButNothingShorter() {
        java.time.Duration min = java.time.Duration.ofMillis(100);
        java.time.Duration fallback = java.time.Duration.ofSeconds(30);
        assertThat(ConfigRules.durationOrZero("k", Optional.empty(), fallback, min)).isEqualTo(fallback);
        assertThat(ConfigRules.durationOrZero("k", Optional.of("0"), fallback, min)).isZero();
        assertThat(ConfigRules.durationOrZero("k", Optional.of("100ms"), fallback, min)).isEqualTo(min);
        assertThatThrownBy(() -> ConfigRules.durationOrZero("streams.websocket.ping-interval", Optional.of("50ms"), fallback, min))
                .hasMessageContaining("streams.websocket.ping-interval").hasMessageContaining("shorter than 100ms");
        assertThatThrownBy(() -> ConfigRules.durationOrZero("streams.websocket.ping-interval", Optional.of("-1s"), fallback, min))
                .hasMessageContaining("0 or a positive duration");
    }

    @Test
    void integersMustBeWholeAndInRange() {
        assertThat(ConfigRules.integer("k", Optional.of("-1"), 5, -1, 10)).isEqualTo(-1);
        assertThat(ConfigRules.integer("k", Optional.empty(), 5, -1, 10)).isEqualTo(5);
        assertThatThrownBy(() -> ConfigRules.integer("streams.listener.batch-size", Optional.of("0"), 5, 1, 10))
                .hasMessageContaining("streams.listener.batch-size").hasMessageContaining("from 1 to 10");
        assertThatThrownBy(() -> ConfigRules.integer("streams.listener.max-retries", Optional.of("many"), 5, -1, 10))
                .hasMessageContaining("streams.listener.max-retries");
    }

    @Test
    void aMaximumShorterThanItsMinimumIsRefused() {
        assertThatThrownBy(() -> ConfigRules.atLeast("streams.listener.max-retry-delay", java.time.Duration.ofMillis(10),
                java.time.Duration.ofSeconds(1))).hasMessageContaining("streams.listener.max-retry-delay");
    }

    @Test
    void sizesTakeBinaryUnitsAndRefuseWhatIsOutOfRange() {
        assertThat(ConfigRules.bytes("k", Optional.empty(), 7, 1, 100)).isEqualTo(7);
        assertThat(ConfigRules.bytes("k", Optional.of("65536"), 0, 1, 1L << 40)).isEqualTo(65_536);
        assertThat(ConfigRules.bytes("k", Optional.of("512k"), 0, 1, 1L << 40)).isEqualTo(512 * 1024);
        assertThat(ConfigRules.bytes("k", Optional.of("64MiB"), 0, 1, 1L << 40)).isEqualTo(64L << 20);
        assertThat(ConfigRules.bytes("k", Optional.of("1 g"), 0, 1, 1L << 40)).isEqualTo(1L << 30);
        for (String bad : new String[] {"-1", "1.5m", "12 parsecs", "99999999999999999999g", "0"}) {
            assertThatThrownBy(() -> ConfigRules.bytes("streams.outbound.max-server-bytes", Optional.of(bad), 0, 1, 1L << 40))
                    .as(bad).hasMessageContaining("streams.outbound.max-server-bytes");
        }
    }

    @Test
    void aBoundedDurationNamesItsKeyAndItsRange() {
        Duration fallback = Duration.ofSeconds(25);
        Duration min = Duration.ofSeconds(1);
        Duration max = Duration.ofMinutes(5);
        assertThat(ConfigRules.duration("streams.sse.heartbeat", Optional.empty(), fallback, min, max)).isEqualTo(fallback);
        assertThat(ConfigRules.duration("streams.sse.heartbeat", Optional.of("2s"), fallback, min, max))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(ConfigRules.duration("streams.sse.heartbeat", Optional.of("5m"), fallback, min, max))
                .isEqualTo(max);
        assertThatThrownBy(() -> ConfigRules.duration("streams.sse.heartbeat", Optional.of("500ms"), fallback, min, max))
                .hasMessageContaining("streams.sse.heartbeat").hasMessageContaining("outside 1s to 5m");
        assertThatThrownBy(() -> ConfigRules.duration("streams.sse.heartbeat", Optional.of("6m"), fallback, min, max))
                .hasMessageContaining("outside 1s to 5m");
        assertThatThrownBy(() -> ConfigRules.duration("streams.sse.heartbeat", Optional.of("0"), fallback, min, max))
                .hasMessageContaining("not a positive duration");
    }
}
