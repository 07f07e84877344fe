package io.objectstreams.web.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectstreams.Viewer;
import io.objectstreams.protocol.ErrorCode;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What {@link Admission} admits and refuses, each refusal {@code connection_limit_exceeded} naming why. */
class AdmissionTest {

    private static Viewer user(String name) {
        return new Viewer(name, Set.of());
    }

    @Test
    void theConfiguredMaximumAndThePrincipalsShareAreKept() throws Exception {
        Admission admission = new Admission(3, 2, 0);
        admission.admit(user("alice"));
        admission.admit(user("alice"));
        ProtocolError third = assertThrows(ProtocolError.class, () -> admission.admit(user("alice")));
        assertTrue(third.getMessage().contains("streams.connections.max-per-principal"), third.getMessage());
        admission.admit(user("bob"));
        ProtocolError full = assertThrows(ProtocolError.class, () -> admission.admit(user("carol")));
        assertEquals(ErrorCode.CONNECTION_LIMIT_EXCEEDED, full.code());
        assertTrue(full.getMessage().contains("streams.connections.max"), full.getMessage());
        admission.release(user("bob"));
        admission.admit(user("carol"));
    }

    @Test
    void theOpenFileLimitBoundsConnectionsBelowTheSetting() throws Exception {
        Admission admission = new Admission(10_000, 10_000, 0, 2, "no more files", () -> false, "");
        admission.admit(user("a"));
        admission.admit(user("b"));
        ProtocolError refused = assertThrows(ProtocolError.class, () -> admission.admit(user("c")));
        assertEquals(ErrorCode.CONNECTION_LIMIT_EXCEEDED, refused.code());
        assertEquals("no more files", refused.getMessage());
        admission.release(user("a"));
        admission.admit(user("c"));
    }

    @Test
    void aFullHeapRefusesNewConnectionsAndGivesBackTheSlot() throws Exception {
        AtomicBoolean full = new AtomicBoolean(true);
        Admission admission = new Admission(1, 1, 0, Integer.MAX_VALUE, "", full::get, "heap full");
        ProtocolError refused = assertThrows(ProtocolError.class, () -> admission.admit(user("a")));
        assertEquals("heap full", refused.getMessage());
        full.set(false);
        admission.admit(user("a")); // the refused attempt held no slot
    }

    @Test
    void aGaugeAtOneHundredPercentIsOff() {
        assertEquals(false, new HeapGauge(100).getAsBoolean());
    }
}
