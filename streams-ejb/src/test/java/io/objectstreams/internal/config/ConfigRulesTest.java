package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
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
}
