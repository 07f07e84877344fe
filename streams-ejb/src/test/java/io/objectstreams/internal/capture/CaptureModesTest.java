package io.objectstreams.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One capture path per entity: the annotation or the setting, and a deployment error when they disagree. */
class CaptureModesTest {

    @Entity(name = "Plain")
    @Streamed
    static class Plain {
        @Id
        Long id;
    }

    @Entity(name = "ByTrigger")
    @Streamed(capture = Streamed.Capture.TRIGGER)
    static class ByTrigger {
        @Id
        Long id;
    }

    private static boolean byTrigger(Class<?> type, Map<String, String> settings) {
        return CaptureModes.byTrigger(type, key -> Optional.ofNullable(settings.get(key)));
    }

    @Test
    void theListenerUnlessTheAnnotationOrTheSettingSaysTrigger() {
        assertThat(byTrigger(Plain.class, Map.of())).isFalse();
        assertThat(byTrigger(Plain.class, Map.of("streams.capture.Plain", " Trigger "))).isTrue();
        assertThat(byTrigger(Plain.class, Map.of("streams.capture.Plain", ""))).as("empty is the default").isFalse();
        assertThat(byTrigger(ByTrigger.class, Map.of())).isTrue();
        assertThat(byTrigger(ByTrigger.class, Map.of("streams.capture.ByTrigger", "trigger"))).isTrue();
    }

    @Test
    void anEntityConfiguredForBothPathsIsRefusedNamingBoth() {
        assertThatThrownBy(() -> byTrigger(ByTrigger.class, Map.of("streams.capture.ByTrigger", "listener")))
                .hasMessageContaining(ByTrigger.class.getName()).hasMessageContaining("capture = TRIGGER")
                .hasMessageContaining("streams.capture.ByTrigger=listener");
        assertThatThrownBy(() -> byTrigger(Plain.class, Map.of("streams.capture.Plain", "both")))
                .hasMessageContaining("streams.capture.Plain=both").hasMessageContaining("listener or trigger");
    }
}
