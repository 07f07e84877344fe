package io.objectstreams.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.config.ConfigValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transports' settings: their defaults, the rules between keys, and the deprecated keys that still work. */
class TransportSettingsTest {

    private final Logger log = Logger.getLogger(ConfigValues.class.getName());
    private final List<LogRecord> warnings = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        log.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        log.removeHandler(capture);
    }

    private static TransportSettings of(String... keysAndValues) {
        return TransportSettings.from(values(keysAndValues));
    }

    private static ConfigValues values(String... keysAndValues) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            values.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return ConfigValues.of(values);
    }

    private List<String> warned() {
        return warnings.stream().map(r -> r.getMessage()).toList();
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        TransportSettings settings = of();
        assertThat(settings.maxSubscriptions()).isEqualTo(100);
        assertThat(settings.maxFrameBytes()).isEqualTo(65_536);
        assertThat(settings.maxMemberPks()).isEqualTo(10_000);
        assertThat(settings.maxConnectionMemberPks()).isEqualTo(100_000);
        assertThat(settings.maxConnections()).isEqualTo(10_000);
        assertThat(settings.maxConnectionsPerPrincipal()).isEqualTo(32);
        assertThat(settings.maxAnonymousConnections()).isEqualTo(100);
        assertThat(settings.maxScopes()).isEqualTo(10_000);
        assertThat(settings.maxTotalMemberPks()).isEqualTo(1_000_000);
        assertThat(settings.maxConnectionBytes()).isEqualTo(1L << 20);
        assertThat(settings.maxServerBytes()).isEqualTo(64L << 20);
        assertThat(settings.maxIdle()).isZero();
        assertThat(settings.pingInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.sseHeartbeat()).isEqualTo(Duration.ofSeconds(25));
        assertThat(settings.sseLifetime()).isEqualTo(Duration.ofMinutes(30));
        assertThat(settings.senderThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(settings.allowedOrigins()).isEmpty();
        assertThat(settings.replayLimit()).isEqualTo(1000);
        assertThat(settings.cursorHeaderEverywhere()).isFalse();
        assertThat(settings.skipContainerIdleTimer()).isTrue();
    }

    @Test
    void theNewKeysAreRead() {
        TransportSettings settings = of("streams.subscriptions.max-member-pks", "5",
                "streams.connections.max-member-pks", "8", "streams.outbound.sender-threads", "3");
        assertThat(settings.maxMemberPks()).isEqualTo(5);
        assertThat(settings.maxConnectionMemberPks()).isEqualTo(8);
        assertThat(settings.senderThreads()).isEqualTo(3);
        assertThat(warnings).isEmpty();
    }

    @Test
    void aDeprecatedKeyStillWorksAndWarnsOnceNamingTheNewKey() {
        ConfigValues values = values("streams.websocket.max-member-pks", "5",
                "streams.websocket.max-connection-member-pks", "8", "streams.websocket.sender-threads", "3");
        TransportSettings settings = TransportSettings.from(values);
        TransportSettings again = TransportSettings.from(values);
        assertThat(settings.maxMemberPks()).isEqualTo(5);
        assertThat(again.maxConnectionMemberPks()).isEqualTo(8);
        assertThat(settings.senderThreads()).isEqualTo(3);
        assertThat(warned()).containsExactlyInAnyOrder(
                "streams.websocket.max-member-pks is deprecated; set streams.subscriptions.max-member-pks instead",
                "streams.websocket.max-connection-member-pks is deprecated; set streams.connections.max-member-pks instead",
                "streams.websocket.sender-threads is deprecated; set streams.outbound.sender-threads instead");
    }

    @Test
    void whenBothAreSetTheNewKeyWinsAndTheWarningSaysSo() {
        TransportSettings settings = of("streams.subscriptions.max-member-pks", "7", "streams.websocket.max-member-pks", "5");
        assertThat(settings.maxMemberPks()).isEqualTo(7);
        assertThat(warned()).singleElement().asString().contains("streams.websocket.max-member-pks is deprecated")
                .contains("Both are set, and streams.subscriptions.max-member-pks wins");
    }

    @Test
    void aBadValueUnderADeprecatedKeyNamesTheKeyThatWasSet() {
        assertThatThrownBy(() -> of("streams.websocket.sender-threads", "0")).isInstanceOf(StreamsException.class)
                .hasMessageContaining("streams.websocket.sender-threads").hasMessageContaining("from 1 to 256");
    }

    @Test
    void aDeprecatedKeyFromASourceOfHigherOrdinalWinsAsForOneKey() {
        // The application bundles the new key; operations still override the old one in the environment.
        TransportSettings settings = TransportSettings.from(ConfigValues.of(
                Map.of("streams.websocket.max-member-pks", "50"), Map.of("streams.subscriptions.max-member-pks", "7")));
        assertThat(settings.maxMemberPks()).isEqualTo(50);
        assertThat(warned()).singleElement().asString().contains("streams.websocket.max-member-pks is deprecated")
                .contains("Both are set, and streams.websocket.max-member-pks wins");
    }

    @Test
    void aConnectionMayNotHoldFewerMembersThanOneSubscription() {
        assertThatThrownBy(() -> of("streams.subscriptions.max-member-pks", "50", "streams.connections.max-member-pks", "49"))
                .isInstanceOf(StreamsException.class).hasMessageContaining("streams.connections.max-member-pks")
                .hasMessageContaining("from 50 to 100000000");
        assertThatThrownBy(() -> of("streams.websocket.max-member-pks", "50", "streams.websocket.max-connection-member-pks", "49"))
                .as("named as it was set").hasMessageContaining("streams.websocket.max-connection-member-pks");
        assertThat(of("streams.subscriptions.max-member-pks", "200000").maxConnectionMemberPks()).isEqualTo(200_000);
    }

    @Test
    void aPrincipalMayNotHoldMoreConnectionsThanTheInstance() {
        assertThatThrownBy(() -> of("streams.connections.max", "10", "streams.connections.max-per-principal", "11"))
                .hasMessageContaining("streams.connections.max-per-principal").hasMessageContaining("from 1 to 10");
        assertThat(of("streams.connections.max", "10").maxConnectionsPerPrincipal()).isEqualTo(10);
    }

    @Test
    void aConnectionMayNotQueueMoreThanTheServer() {
        assertThatThrownBy(() -> of("streams.outbound.max-server-bytes", "1m", "streams.outbound.max-connection-bytes", "2m"))
                .hasMessageContaining("streams.outbound.max-connection-bytes").hasMessageContaining("to 1048576 bytes");
        assertThat(of("streams.outbound.max-server-bytes", "512k").maxConnectionBytes()).isEqualTo(512L << 10);
    }

    @Test
    void theRemovedOutboundQueueStopsDeploymentNamingTheByteBudgets() {
        assertThatThrownBy(() -> of("streams.websocket.outbound-queue", "5000")).isInstanceOf(StreamsException.class)
                .hasMessageContaining("streams.websocket.outbound-queue")
                .hasMessageContaining("streams.outbound.max-connection-bytes")
                .hasMessageContaining("streams.outbound.max-server-bytes");
    }

    @Test
    void sseDefaultsKeepTheBoundsOfTheirParameters() {
        assertThatThrownBy(() -> of("streams.sse.heartbeat", "6m")).hasMessageContaining("streams.sse.heartbeat")
                .hasMessageContaining("outside 1s to 5m");
        assertThatThrownBy(() -> of("streams.sse.lifetime", "5h")).hasMessageContaining("streams.sse.lifetime")
                .hasMessageContaining("outside 1s to 4h");
        assertThat(of("streams.sse.lifetime", "PT4H").sseLifetime()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void webSocketDurationsTakeZeroForNeverAndKeepTheirMinimum() {
        TransportSettings settings = of("streams.websocket.max-idle", "90s", "streams.websocket.ping-interval", "0");
        assertThat(settings.maxIdle()).isEqualTo(Duration.ofSeconds(90));
        assertThat(settings.pingInterval()).isZero();
        assertThat(of("streams.websocket.ping-interval", "100ms").pingInterval()).isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> of("streams.websocket.ping-interval", "50ms"))
                .hasMessageContaining("streams.websocket.ping-interval").hasMessageContaining("shorter than 100ms");
        assertThatThrownBy(() -> of("streams.websocket.max-idle", "-1s"))
                .hasMessageContaining("streams.websocket.max-idle").hasMessageContaining("0 or a positive duration");
    }

    @Test
    void originsAreNormalizedAndCheckedAgainstTheOwnOrigin() {
        TransportSettings settings = of("streams.websocket.allowed-origins", "https://App.example.com, http://x:8000");
        assertThat(settings.allowsOrigin("https://app.example.com:443", Optional.empty())).isTrue();
        assertThat(settings.allowsOrigin("http://other", Optional.of("http://other:80"))).isTrue();
        assertThat(settings.allowsOrigin("http://evil", Optional.of("http://other"))).isFalse();
        assertThatThrownBy(() -> of("streams.websocket.allowed-origins", "app.example.com"))
                .hasMessageContaining("streams.websocket.allowed-origins");
    }
}
