package io.objectstreams.it.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Heap and GC figures of a server JVM, read with {@code jstat -gc} (sizes in bytes, times in ms). */
record ServerStats(long heapUsed, long gcMillis, long fullGcs) {

    static ServerStats read(long pid) {
        Map<String, Double> gc = jstat(pid);
        long usedKb = Math.round(gc.get("S0U") + gc.get("S1U") + gc.get("EU") + gc.get("OU"));
        return new ServerStats(usedKb * 1024, Math.round(gc.get("GCT") * 1000), Math.round(gc.get("FGC")));
    }

    /** CPU time (user + system) the process and its threads have used so far, in ms, from /proc. */
    static long cpuMillis(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 10;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Heap in use right after a full collection (jcmd GC.run), in MB: what the server retains. */
    static String heapAfterFullGc(long pid) {
        return (retainedHeap(pid) >> 20) + " MB";
    }

    /** Heap in use right after a full collection, in bytes. */
    static long retainedHeap(long pid) {
        run(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid), "GC.run");
        return read(pid).heapUsed();
    }

    /**
     * With {@code -Dbench.profile=true}, records the server with Java Flight Recorder for {@code duration}, into
     * {@code target/<name>.jfr} (read it with {@code jfr print --events jdk.ExecutionSample}).
     */
    static void profileIfAsked(long pid, String name, java.time.Duration duration) {
        if (Boolean.getBoolean("bench.profile")) {
            String file = Path.of("target", name + ".jfr").toAbsolutePath().toString();
            System.out.println(run(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                    "JFR.start", "duration=" + duration.toSeconds() + "s", "settings=profile", "filename=" + file).trim());
        }
    }

    private static Map<String, Double> jstat(long pid) {
        String[] lines = run(Path.of(System.getProperty("java.home"), "bin", "jstat").toString(), "-gc",
                Long.toString(pid)).trim().split("\n");
        String[] names = lines[0].trim().split("\\s+");
        String[] values = lines[lines.length - 1].trim().split("\\s+");
        Map<String, Double> gc = new HashMap<>();
        for (int i = 0; i < names.length && i < values.length; i++) {
            gc.put(names[i], values[i].equals("-") ? 0 : Double.parseDouble(values[i]));
        }
        return gc;
    }

    private static String run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return output;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
