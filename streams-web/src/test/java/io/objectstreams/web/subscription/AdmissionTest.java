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
        assertEquals("streams.connections.max-per-principal", third.setting());
        admission.admit(user("bob"));
        ProtocolError full = assertThrows(ProtocolError.class, () -> admission.admit(user("carol")));
        assertEquals(ErrorCode.CONNECTION_LIMIT_EXCEEDED, full.code());
        assertTrue(full.getMessage().contains("streams.connections.max"), full.getMessage());
        assertEquals("streams.connections.max", full.setting());
        assertEquals("{\"code\":\"connection_limit_exceeded\",\"message\":\"" + full.getMessage()
                + "\",\"details\":{\"setting\":\"streams.connections.max\"}}", full.body());
        admission.release(user("bob"));
        admission.admit(user("carol"));
    }

    @Test
    void theOpenFileLimitBoundsConnectionsBelowTheSetting() throws Exception {
        // 10 files, 6 held by the server, 2 reserved: room for 2 connections.
        long[] open = {6};
        FileBudget files = new FileBudget(10, 2, () -> open[0], () -> 0L);
        Admission admission = new Admission(10_000, 10_000, 0, files, "no more files", () -> false, "");
        admission.admit(user("a"));
        open[0]++;
        admission.admit(user("b"));
        open[0]++;
        ProtocolError refused = assertThrows(ProtocolError.class, () -> admission.admit(user("c")));
        assertEquals(ErrorCode.CONNECTION_LIMIT_EXCEEDED, refused.code());
        assertEquals("no more files", refused.getMessage());
        assertEquals("streams.connections.reserved-files", refused.setting());
        admission.release(user("a"));
        admission.admit(user("c"));
    }

    @Test
    void aFullHeapRefusesNewConnectionsAndGivesBackTheSlot() throws Exception {
        AtomicBoolean full = new AtomicBoolean(true);
        Admission admission = new Admission(1, 1, 0, new FileBudget(-1, 0, () -> -1, () -> 0L), "", full::get,
                "heap full");
        ProtocolError refused = assertThrows(ProtocolError.class, () -> admission.admit(user("a")));
        assertEquals("heap full", refused.getMessage());
        assertEquals("streams.connections.max-heap-percent", refused.setting());
        full.set(false);
        admission.admit(user("a")); // the refused attempt held no slot
    }

    @Test
    void refusalsAreCountedByCodeAndByTheSettingWhoseLimitRefusedThem() throws Exception {
        Admission admission = new Admission(1, 1, 0);
        admission.admit(user("a"));
        DeliveryCounts counts = new DeliveryCounts();
        ProtocolError full = assertThrows(ProtocolError.class, () -> admission.admit(user("b")));
        counts.refused(full.code().wireName(), full.setting());
        ProtocolError malformed = new ProtocolError(ErrorCode.INVALID_REQUEST, "not JSON");
        counts.refused(malformed.code().wireName(), malformed.setting());
        assertEquals(java.util.Map.of("connection_limit_exceeded", 1L, "invalid_request", 1L),
                counts.transportCounts().refusalsByCode());
        assertEquals(java.util.Map.of("streams.connections.max", 1L), counts.transportCounts().refusalsBySetting());
    }

    @Test
    void theFileBudgetFollowsTheServersOwnFilesNotItsConnections() {
        long[] clock = {0};
        long[] open = {400};
        FileBudget files = new FileBudget(2_000, 100, () -> open[0], () -> clock[0]);
        assertEquals(1_500, files.capacity(0));
        open[0] = 1_400; // 1,000 connections later: their sockets are not the server's own files
        clock[0] = 10_000_000_000L;
        assertEquals(1_500, files.capacity(1_000));
        open[0] = 1_600; // the server itself opened 200 more (a pool that grew): measured again after 5 s
        assertEquals(1_500, files.capacity(1_000));
        clock[0] = 16_000_000_000L;
        assertEquals(1_300, files.capacity(1_000));
        assertEquals(Integer.MAX_VALUE, new FileBudget(-1, 100, () -> 5, () -> 0L).capacity(0));
        assertEquals(Integer.MAX_VALUE, new FileBudget(2_000, 100, () -> -1, () -> 0L).capacity(0));
    }

    @Test
    void aGaugeAtOneHundredPercentIsOff() {
        assertEquals(false, new HeapGauge(100).getAsBoolean());
    }
}
