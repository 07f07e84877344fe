package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.feed.HealthSettings;
import io.objectstreams.feed.OutboxSettings;
import io.objectstreams.feed.SchemaSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The outbox, schema and health settings: defaults, and a bad value naming its key. */
class FeatureSettingsTest {

    @Test
    void theDatasourceIsRequiredAndTheRestHasDefaults() {
        assertThatThrownBy(() -> OutboxSettings.from(ConfigValues.of(Map.of()))).isInstanceOf(StreamsException.class)
                .hasMessageContaining("streams.datasource").hasMessageContaining("required");
        OutboxSettings outbox = OutboxSettings.from(ConfigValues.of(Map.of("streams.datasource", " jdbc/store ")));
        assertThat(outbox.dataSource()).isEqualTo("jdbc/store");
        assertThat(outbox.notifyChannel()).isEqualTo("object_streams_events");
        SchemaSettings schema = SchemaSettings.from(ConfigValues.of(Map.of()));
        assertThat(schema.migrate()).isTrue();
        assertThat(schema.migrateTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(HealthSettings.from(ConfigValues.of(Map.of())).maxBacklogAge()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theMigrationTimeoutTakesZeroToTryOnce() {
        assertThat(SchemaSettings.from(ConfigValues.of(Map.of("streams.schema.migrate-timeout", "0"))).migrateTimeout())
                .isZero();
        assertThat(SchemaSettings.from(ConfigValues.of(Map.of("streams.schema.migrate-timeout", "5s"))).migrateTimeout())
                .isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> SchemaSettings.from(ConfigValues.of(Map.of("streams.schema.migrate-timeout", "soon"))))
                .hasMessageContaining("streams.schema.migrate-timeout");
    }

    @Test
    void aBadValueNamesItsKey() {
        assertThatThrownBy(() -> OutboxSettings.from(ConfigValues.of(Map.of("streams.datasource", "jdbc/store",
                "streams.notify-channel", "Events")))).hasMessageContaining("streams.notify-channel");
        assertThatThrownBy(() -> SchemaSettings.from(ConfigValues.of(Map.of("streams.schema.migrate", "yes"))))
                .hasMessageContaining("streams.schema.migrate");
        assertThatThrownBy(() -> HealthSettings.from(ConfigValues.of(Map.of("streams.health.max-backlog-age", "0"))))
                .hasMessageContaining("streams.health.max-backlog-age");
    }
}
