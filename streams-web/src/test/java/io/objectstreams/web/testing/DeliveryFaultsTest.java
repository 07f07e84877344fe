package io.objectstreams.web.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.web.testing.DeliveryFaults.Fault;
import org.junit.jupiter.api.Test;

/** Off unless the JVM was started with the switch: this test JVM was not, so nothing can be armed or fire. */
class DeliveryFaultsTest {

    @Test
    void noFaultCanBeArmedWithoutTheSwitch() {
        assertThat(System.getProperty(DeliveryFaults.PROPERTY)).isNull();
        assertThat(System.getenv(DeliveryFaults.ENVIRONMENT)).isNull();
        for (Fault fault : Fault.values()) {
            assertThatThrownBy(() -> DeliveryFaults.arm(fault)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(DeliveryFaults.PROPERTY);
            assertThat(DeliveryFaults.armed(fault)).isFalse();
            assertThat(DeliveryFaults.fire(fault)).isFalse();
        }
        assertThat(DeliveryFaults.fired().values()).containsOnly(0L);
    }
}
