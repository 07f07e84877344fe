package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.feed.RetentionSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetentionSettingsTest {

    private static RetentionSettings of(String maxAge, String maxRows, String interval, String batchSize) {
        Map<String, String> values = new HashMap<>();
        values.put("streams.retention.max-age", maxAge);
        values.put("streams.retention.max-rows", maxRows);
        values.put("streams.retention.interval", interval);
        values.put("streams.retention.batch-size", batchSize);
        return RetentionSettings.from(ConfigValues.of(values));
    }

    @Test
    void unsetKeepsEverythingWithTheDefaultIntervalAndBatch() {
        RetentionSettings settings = of(null, null, null, null);
        assertThat(settings.enabled()).isFalse();
        assertThat(settings.interval()).isEqualTo(Duration.ofHours(1));
        assertThat(settings.batchSize()).isEqualTo(10_000);
    }

    @Test
    void readsDaysAndRows() {
        RetentionSettings settings = of("7d", "5000000", "30m", "500");
        assertThat(settings.maxAge()).isEqualTo(Duration.ofDays(7));
        assertThat(settings.maxRows()).isEqualTo(5_000_000L);
        assertThat(settings.interval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(settings.batchSize()).isEqualTo(500);
        assertThat(settings.enabled()).isTrue();
        assertThat(of(null, "10", null, null).enabled()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "soon | | | | streams.retention.max-age",
            "30s | | | | streams.retention.max-age",
            "-1d | | | | streams.retention.max-age",
            " | 0 | | | streams.retention.max-rows",
            " | lots | | | streams.retention.max-rows",
            " | 99999999999999999999 | | | streams.retention.max-rows",
            "7d | | 500ms | | streams.retention.interval",
            "7d | | never | | streams.retention.interval",
            "7d | | | 0 | streams.retention.batch-size",
            "7d | | | 2000000 | streams.retention.batch-size"})
    void aValueThatCannotWorkNamesItsKey(String maxAge, String maxRows, String interval, String batchSize, String key) {
        assertThatThrownBy(() -> of(maxAge, maxRows, interval, batchSize))
                .isInstanceOf(StreamsException.class)
                .hasMessageContaining(key)
                .extracting(e -> ((StreamsException) e).code()).isEqualTo("invalid_configuration");
    }
}
