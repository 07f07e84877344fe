package io.objectstreams.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a server JVM holds, from {@code jcmd GC.class_histogram} (which collects garbage first, so only live objects count). */
public final class Jvm {

    /** Live instances and bytes of one class. */
    public record Live(long instances, long bytes) {
    }

    private Jvm() {
    }

    /** Live instances and bytes per class name, with their sum under {@code "Total"}. */
    public static Map<String, Live> histogram(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        String output;
        try {
            Process histogram = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true).start();
            output = new String(histogram.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            histogram.waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Map<String, Live> classes = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length >= 4 && parts[0].endsWith(":")) {
                classes.put(parts[3], new Live(Long.parseLong(parts[1]), Long.parseLong(parts[2])));
            } else if (parts.length == 3 && parts[0].equals("Total")) {
                classes.put("Total", new Live(Long.parseLong(parts[1]), Long.parseLong(parts[2])));
            }
        }
        if (!classes.containsKey("Total")) {
            throw new IllegalStateException("no class histogram from process " + pid + ": " + output);
        }
        return classes;
    }

    /** Live instances of {@code className} in the server behind {@code deployment} (its {@code it/jvm/pid}). */
    public static long liveInstances(java.net.URL deployment, String className) {
        StoreClient.Reply pid = StoreClient.as("alice", deployment).get("api/it/jvm/pid");
        if (pid.status() != 200) {
            throw new IllegalStateException("it/jvm/pid answered " + pid.status());
        }
        Live live = histogram(pid.object().getJsonNumber("pid").longValue()).get(className);
        return live == null ? 0 : live.instances();
    }

    /**
     * The five processes of this machine that used the most CPU over their life, as {@code ps} reports them
     * ({@code %cpu elapsed command}): for failure messages of tests that time out, to tell a slow machine or a
     * process left behind by an earlier test from a fault of the server under test.
     */
    public static String busiestProcesses() {
        try {
            Process ps = new ProcessBuilder("ps", "-eo", "pcpu,etime,args", "--sort=-pcpu").redirectErrorStream(true).start();
            String[] lines = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n");
            ps.waitFor();
            StringBuilder top = new StringBuilder();
            for (int i = 1; i < Math.min(lines.length, 6); i++) {
                String line = lines[i].trim();
                top.append(i == 1 ? "" : " | ").append(line, 0, Math.min(line.length(), 160));
            }
            return top.toString();
        } catch (IOException e) {
            return "(ps failed: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }
}
