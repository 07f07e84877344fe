package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one duration grammar: what configuration and SSE parameters accepted before, both still accept. */
class DurationsTest {

    @ParameterizedTest
    @CsvSource({"500ms, PT0.5S", "1s, PT1S", "2m, PT2M", "1h, PT1H", "7d, PT168H", "PT3S, PT3S", "' 5 s ', PT5S",
            "5M, PT5M", "pt1m, PT1M", "0, PT0S", "0ms, PT0S", "PT-1S, PT-1S"})
    void configurationWritesAWholeNumberWithAUnitOrIso8601(String text, Duration expected) {
        assertThat(Durations.parse(text, false)).contains(expected);
        assertThat(Durations.parse(text, true)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "30000", "", "soon", "1.5s", "-1s", "1 w", "99999999999999999999s", "9999999999999999d"})
    void configurationRefusesBareNumbersAndAnythingElse(String text) {
        assertThat(Durations.parse(text, false)).as(text).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"90, PT1M30S", "1, PT1S", "0123, PT2M3S"})
    void whereTheReaderSaysSoABareNumberIsSeconds(String text, Duration expected) {
        assertThat(Durations.parse(text, true)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5s", "-5", "soon", "99999999999999999999"})
    void secondsOrNotTheRestIsRefused(String text) {
        assertThat(Durations.parse(text, true)).as(text).isEmpty();
    }
}
