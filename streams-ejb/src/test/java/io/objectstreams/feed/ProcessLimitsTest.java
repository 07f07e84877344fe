package io.objectstreams.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.objectstreams.internal.config.ConfigValues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open-file limit read from {@code /proc}, and the deployment's warnings when the settings cannot be held. */
class ProcessLimitsTest {

    private static ConnectionSettings connections(Map<String, String> keys) {
        return TransportSettings.from(ConfigValues.of(keys)).connections();
    }

    @Test
    void theSoftOpenFileLimitIsReadFromProcLimits(@TempDir Path dir) throws Exception {
        Path limits = Files.writeString(dir.resolve("limits"), """
                Limit                     Soft Limit           Hard Limit           Units
                Max processes             unlimited            unlimited            processes
                Max open files            20000                524288               files
                """);
        assertEquals(Optional.of(20_000L), ProcessLimits.readMaxFiles(limits));
        Path unlimited = Files.writeString(dir.resolve("unlimited"), "Max open files            unlimited   unlimited  files\n");
        assertEquals(Optional.empty(), ProcessLimits.readMaxFiles(unlimited));
        assertEquals(Optional.empty(), ProcessLimits.readMaxFiles(dir.resolve("absent")));
        Files.createDirectory(dir.resolve("fd"));
        Files.writeString(dir.resolve("fd").resolve("0"), "");
        Files.writeString(dir.resolve("fd").resolve("1"), "");
        assertEquals(Optional.of(2L), ProcessLimits.countOpenFiles(dir.resolve("fd")));
    }

    @Test
    void connectionsLeaveTheOpenFilesAndTheReserveFree() {
        assertEquals(18_500, new ProcessLimits(20_000, 1_000, 1L << 30).connectionsByFiles(500));
        assertEquals(0, new ProcessLimits(1_000, 900, 1L << 30).connectionsByFiles(500));
        assertEquals(Integer.MAX_VALUE, new ProcessLimits(-1, -1, 1L << 30).connectionsByFiles(500));
    }

    @Test
    void aMaximumTheProcessCannotHoldIsNamedWithItsFigures() {
        ConnectionSettings asked = connections(Map.of("streams.connections.max", "30000"));
        List<String> warnings = new ProcessLimits(20_000, 800, 512L * 1024 * 1024).warnings(asked);
        assertEquals(2, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).contains("streams.connections.max=30000 cannot be held: this process may open 20000"
                + " files"), warnings.get(0));
        assertTrue(warnings.get(0).contains("streams.connections.reserved-files=512")
                && warnings.get(0).contains("leaves 18688 connections"), warnings.get(0));
        assertTrue(warnings.get(1).contains("streams.connections.heap-per-connection=40k")
                && warnings.get(1).contains("about 1171 MB") && warnings.get(1).contains("512 MB heap"), warnings.get(1));
    }

    @Test
    void aMaximumThatFitsIsNotWarnedOf() {
        ConnectionSettings asked = connections(Map.of("streams.connections.max", "15000"));
        assertEquals(List.of(), new ProcessLimits(20_000, 800, 2048L * 1024 * 1024).warnings(asked));
        assertEquals(List.of(), new ProcessLimits(-1, -1, 2048L * 1024 * 1024).warnings(asked));
    }
}
