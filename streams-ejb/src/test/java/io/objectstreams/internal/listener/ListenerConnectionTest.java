package io.objectstreams.internal.listener;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The assigner lock's key (issue 11.5); the lock itself is exercised by ListenerFaultsIT and TwoInstancesIT. */
class ListenerConnectionTest {

    @Test
    void eachOutboxTableHasItsOwnAssignerLockAndEveryInstanceComputesTheSameKey() {
        long shared = ListenerConnection.assignerLock("public.streams_outbox");

        assertThat(ListenerConnection.assignerLock("public.streams_outbox")).isEqualTo(shared);
        assertThat(ListenerConnection.assignerLock("it_tenant.streams_outbox")).isNotEqualTo(shared);
        assertThat(ListenerConnection.assignerLock("\"Tenant B\".streams_outbox"))
                .isNotEqualTo(ListenerConnection.assignerLock("it_tenant.streams_outbox"));
        assertThat(shared >>> 32).as("marked as Object Streams' among advisory locks").isEqualTo(0x0b5e_c75eL);
    }
}
