package io.objectstreams.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ListenerHealthChecksTest {

    private final HealthRegistry registry = new HealthRegistry();

    @BeforeAll
    static void plainResponses() {
        // The server supplies the builder; this one only records what the check says.
        HealthCheckResponse.setResponseProvider(RecordingBuilder::new);
    }

    @Test
    void downAndSaysSoWhileNoListenerIsRegistered() {
        HealthCheckResponse response = ListenerHealthChecks.check(registry, ListenerReport::ready).call();

        assertThat(response.getName()).isEqualTo("object-streams-listener");
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(response.getData()).contains(Map.of("listener", "not registered"));
    }

    @Test
    void carriesTheListenersAndTheConnectionsFiguresUnderTheSharedNames() {
        registry.register(HealthRegistry.LISTENER, HealthDataTest::listening);
        registry.register(HealthRegistry.SESSIONS, () -> new SessionReport(3, 1, 5, 2, 0, 0, 100, 0, 0, 9, Map.of()));

        HealthCheckResponse response = ListenerHealthChecks.check(registry, ListenerReport::ready).call();

        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        Map<String, Object> data = response.getData().orElseThrow();
        assertThat(data).containsAllEntriesOf(HealthData.of(HealthDataTest.listening()))
                .contains(entry("webSocketSessions", 2L), entry("sseSessions", 1L), entry("deliveredEvents", 9L));
    }

    @Test
    void readinessFollowsTheBacklogBound() {
        registry.register(HealthRegistry.LISTENER, () -> new ListenerReport(true, true, "follower", 1, 1, null, null,
                1, Duration.ofMinutes(2), Duration.ofSeconds(30), null, -1, null));

        assertThat(ListenerHealthChecks.check(registry, ListenerReport::ready).call().getStatus())
                .isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(ListenerHealthChecks.check(registry, ListenerReport::running).call().getStatus())
                .isEqualTo(HealthCheckResponse.Status.UP);
    }

    /** Keeps each datum with the type it was given, as the servers' builders do. */
    static final class RecordingBuilder extends HealthCheckResponseBuilder {
        private String name;
        private boolean up;
        private final Map<String, Object> data = new LinkedHashMap<>();

        @Override
        public HealthCheckResponseBuilder name(String name) {
            this.name = name;
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, String value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, long value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, boolean value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder up() {
            return status(true);
        }

        @Override
        public HealthCheckResponseBuilder down() {
            return status(false);
        }

        @Override
        public HealthCheckResponseBuilder status(boolean up) {
            this.up = up;
            return this;
        }

        @Override
        public HealthCheckResponse build() {
            return new HealthCheckResponse(name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                    data.isEmpty() ? Optional.empty() : Optional.of(data));
        }
    }
}
