package io.objectstreams.feed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What this process can hold: its open-file limit and the files it has open (read from Linux's {@code /proc}; unknown,
 * {@code -1}, elsewhere), and its maximum heap. Each connection is one open socket, so the open-file limit bounds the
 * connections an instance can hold; past it the container cannot even accept a health request.
 */
public record ProcessLimits(long maxFiles, long openFiles, long maxHeap) {

    /** The files this process has open now; -1 where that cannot be read. */
    public static long openFilesNow() {
        return countOpenFiles(Path.of("/proc/self/fd")).orElse(-1L);
    }

    /** Read now. */
    public static ProcessLimits now() {
        return new ProcessLimits(readMaxFiles(Path.of("/proc/self/limits")).orElse(-1L),
                countOpenFiles(Path.of("/proc/self/fd")).orElse(-1L), Runtime.getRuntime().maxMemory());
    }

    /**
     * The connections the open-file limit leaves room for once the files open now and {@code reserved} more are set
     * aside; {@link Integer#MAX_VALUE} when the limit or the open files are unknown.
     */
    public int connectionsByFiles(int reserved) {
        if (maxFiles < 0 || openFiles < 0) {
            return Integer.MAX_VALUE;
        }
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, maxFiles - openFiles - reserved));
    }

    /**
     * What the settings ask that this process cannot hold, one sentence each naming the keys and the figures: empty
     * when {@code streams.connections.max} fits both the open-file limit and the heap.
     */
    public List<String> warnings(ConnectionSettings connections) {
        List<String> warnings = new ArrayList<>();
        int byFiles = connectionsByFiles(connections.reservedFiles());
        if (byFiles < connections.max()) {
            warnings.add(ConnectionSettings.MAX.key() + "=" + connections.max()
                    + " cannot be held: this process may open "
                    + maxFiles + " files (its open-file limit; the JVM raises it to ulimit -Hn), " + openFiles
                    + " are open now and "
                    + ConnectionSettings.RESERVED_FILES.key() + "=" + connections.reservedFiles()
                    + " are kept for the server, which leaves " + byFiles + " connections; connections past those are"
                    + " refused (connection_limit_exceeded)."
                    + " Raise the process's open-file limit, or lower the setting.");
        }
        long heapNeeded = connections.max() * connections.heapPerConnection();
        long heapAllowed = maxHeap / 100 * connections.maxHeapPercent();
        if (maxHeap != Long.MAX_VALUE && connections.maxHeapPercent() < 100 && heapNeeded > heapAllowed) {
            warnings.add(ConnectionSettings.MAX.key() + "=" + connections.max() + " connections at "
                    + ConnectionSettings.HEAP_PER_CONNECTION.key() + "=" + connections.heapPerConnection() / 1024
                    + "k each take about " + heapNeeded / (1024 * 1024) + " MB, more than the "
                    + heapAllowed / (1024 * 1024) + " MB that " + ConnectionSettings.MAX_HEAP_PERCENT.key() + "="
                    + connections.maxHeapPercent() + " allows of this JVM's " + maxHeap / (1024 * 1024)
                    + " MB heap (-Xmx); new connections are refused"
                    + " (connection_limit_exceeded) once the heap is that full after a collection. Give the server more"
                    + " heap, or lower the setting.");
        }
        return warnings;
    }

    /** Whether the open-file limit leaves room for no connection at all: every one would be refused. */
    public boolean admitsNoConnection(ConnectionSettings connections) {
        return connectionsByFiles(connections.reservedFiles()) == 0;
    }

    /** The soft "Max open files" of a {@code /proc/<pid>/limits} file; empty when absent, unreadable or unlimited. */
    static Optional<Long> readMaxFiles(Path limits) {
        try (Stream<String> lines = Files.lines(limits)) {
            return lines.filter(line -> line.startsWith("Max open files")).findFirst()
                    .map(line -> line.substring("Max open files".length()).trim().split("\\s+")[0])
                    .filter(soft -> soft.chars().allMatch(Character::isDigit) && !soft.isEmpty())
                    .map(Long::parseLong);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The entries of a {@code /proc/<pid>/fd} directory; empty when absent or unreadable. */
    static Optional<Long> countOpenFiles(Path fds) {
        try (Stream<Path> entries = Files.list(fds)) {
            return Optional.of(entries.count());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
