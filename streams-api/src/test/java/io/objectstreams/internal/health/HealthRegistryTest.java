package io.objectstreams.internal.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class HealthRegistryTest {

    private final HealthRegistry registry = new HealthRegistry();

    @Test
    void nothingRegisteredMeansNoReport() {
        assertThat(registry.report(HealthRegistry.LISTENER)).isEmpty();
        assertThat(registry.report(HealthRegistry.SESSIONS)).isEmpty();
    }

    @Test
    void eachKeyAnswersWithAFreshReportFromItsOwnSource() {
        int[] asked = {0};
        registry.register(HealthRegistry.SESSIONS, () -> sessions(++asked[0]));

        assertThat(registry.report(HealthRegistry.SESSIONS)).map(SessionReport::sessions).contains(1);
        assertThat(registry.report(HealthRegistry.SESSIONS)).map(SessionReport::sessions).contains(2);
        assertThat(registry.report(HealthRegistry.LISTENER)).isEmpty();
    }

    @Test
    void aLaterSourceReplacesTheEarlierAndSurvivesTheEarliersUnregistering() {
        Supplier<SessionReport> first = () -> sessions(1);
        Supplier<SessionReport> second = () -> sessions(2);
        registry.register(HealthRegistry.SESSIONS, first);
        registry.register(HealthRegistry.SESSIONS, second);

        registry.unregister(HealthRegistry.SESSIONS, first);
        assertThat(registry.report(HealthRegistry.SESSIONS)).map(SessionReport::sessions).contains(2);

        registry.unregister(HealthRegistry.SESSIONS, second);
        assertThat(registry.report(HealthRegistry.SESSIONS)).isEmpty();
    }

    @Test
    void theApplicationHasOneRegistry() {
        assertThat(HealthRegistry.application()).isSameAs(HealthRegistry.application());
    }

    static SessionReport sessions(int sessions) {
        return new SessionReport(sessions, 0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of());
    }
}
