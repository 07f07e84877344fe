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

    /**
     * CPU time (user + system, ms) of each thread of a process so far, summed by thread name with its digits
     * replaced by {@code N} (so a pool's threads are one line), from /proc. Names are the kernel's: at most 15
     * characters.
     */
    static Map<String, Long> cpuMillisByThread(long pid) {
        Map<String, Long> threads = new HashMap<>();
        try (var tasks = java.nio.file.Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "N");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    threads.merge(name, (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while we listed them
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        return threads;
    }

    /**
     * CPU time (user + system, ms) of each PostgreSQL process on this machine so far, by pid; pid 0 holds what
     * ended processes (autovacuum workers, closed sessions) left to the postmaster. The test database is the only
     * PostgreSQL here.
     */
    static Map<Long, Long> postgresCpuMillis() {
        Map<Long, Long> cpu = new HashMap<>();
        try (var processes = java.nio.file.Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                if (!process.getFileName().toString().matches("\\d+")) {
                    continue;
                }
                try {
                    String stat = java.nio.file.Files.readString(process.resolve("stat"));
                    if (!stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).equals("postgres")) {
                        continue;
                    }
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    cpu.put(Long.parseLong(process.getFileName().toString()),
                            (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10);
                    cpu.merge(0L, (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * 10, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we listed them
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return cpu;
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
     * Live objects by class (instances, bytes) after a full collection, read with {@code jcmd GC.class_histogram}:
     * the difference of two says what a phase left on the heap.
     */
    static Map<String, long[]> classHistogram(long pid) {
        Map<String, long[]> classes = new HashMap<>();
        String histogram = run(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                "GC.class_histogram");
        for (String line : histogram.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                classes.merge(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])},
                        (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            }
        }
        return classes;
    }

    /** Prints the {@code top} classes that grew most between two histograms, per unit (e.g. per connection). */
    static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int units, int top) {
        long total = 0;
        java.util.List<Map.Entry<String, long[]>> growth = new java.util.ArrayList<>();
        for (Map.Entry<String, long[]> e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long[] d = {e.getValue()[0] - b[0], e.getValue()[1] - b[1]};
            total += d[1];
            growth.add(Map.entry(e.getKey(), d));
        }
        growth.sort((x, y) -> Long.compare(y.getValue()[1], x.getValue()[1]));
        System.out.printf("live heap grew %.1f KB per connection; the %d classes that grew most:%n",
                total / 1024.0 / units, top);
        System.out.println("| class | instances per connection | bytes per connection |");
        System.out.println("| --- | --- | --- |");
        growth.stream().limit(top).forEach(e -> System.out.printf("| %s | %.2f | %.0f |%n", e.getKey(),
                (double) e.getValue()[0] / units, (double) e.getValue()[1] / units));
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
