package io.objectstreams.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Grouped bar charts of {@link FanOutLoadBenchmark}'s results, written as SVG next to docs/benchmarks.md. */
final class LoadPlots {

    private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759"};

    private LoadPlots() {
    }

    static void write(Path directory, List<FanOutLoadBenchmark.Result> results) throws IOException {
        Files.createDirectories(directory);
        List<String> groups = new ArrayList<>();
        Map<String, double[]> deliveries = new LinkedHashMap<>();
        Map<String, double[]> latency = new LinkedHashMap<>();
        deliveries.put("capacity (75 writes/s)", new double[results.size()]);
        deliveries.put("overload (8 writers)", new double[results.size()]);
        latency.put("p50", new double[results.size()]);
        latency.put("p99", new double[results.size()]);
        for (int i = 0; i < results.size(); i++) {
            FanOutLoadBenchmark.Result r = results.get(i);
            groups.add(r.server() + ", " + r.connections());
            deliveries.get("capacity (75 writes/s)")[i] = r.capacity().deliveriesPerSecond();
            deliveries.get("overload (8 writers)")[i] = r.overload().deliveriesPerSecond();
            latency.get("p50")[i] = r.latencyMs()[0];
            latency.get("p99")[i] = r.latencyMs()[2];
        }
        Path bars = directory.resolve("fan-out-deliveries.svg");
        Files.writeString(bars, chart("Deliveries per second (server, connections)", groups, deliveries, "deliveries/s"));
        Path lines = directory.resolve("fan-out-latency.svg");
        Files.writeString(lines, chart("Sequential write-to-event latency (server, connections)", groups, latency, "ms"));
        System.out.println("Plots written: " + bars.toAbsolutePath().normalize() + ", " + lines.toAbsolutePath().normalize());
    }

    /**
     * The viewers benchmark (issue 27): sequential p99 and visibility queries per write, grouped by (server,
     * connections), one bar per mode (three users or distinct viewers; model or status filter).
     */
    static void writeViewers(Path directory, List<FanOutLoadBenchmark.Result> results) throws IOException {
        Files.createDirectories(directory);
        List<String> groups = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        for (FanOutLoadBenchmark.Result r : results) {
            String group = r.server() + ", " + r.connections();
            if (!groups.contains(group)) {
                groups.add(group);
            }
            if (!modes.contains(r.mode())) {
                modes.add(r.mode());
            }
        }
        Map<String, double[]> p99 = new LinkedHashMap<>();
        Map<String, double[]> queries = new LinkedHashMap<>();
        for (String mode : modes) {
            p99.put(mode, new double[groups.size()]);
            queries.put(mode, new double[groups.size()]);
        }
        for (FanOutLoadBenchmark.Result r : results) {
            int group = groups.indexOf(r.server() + ", " + r.connections());
            p99.get(r.mode())[group] = r.latencyMs()[2];
            queries.get(r.mode())[group] = r.queriesPerWrite();
        }
        // One server's run names its plots after it, so that the other server's run does not overwrite them.
        List<String> servers = results.stream().map(FanOutLoadBenchmark.Result::server).distinct().toList();
        String suffix = servers.size() == 1 ? "-" + servers.get(0) : "";
        Path latency = directory.resolve("viewers-latency" + suffix + ".svg");
        Files.writeString(latency, chart("Sequential write-to-event p99 (server, connections)", groups, p99, "ms"));
        Path cost = directory.resolve("viewers-queries" + suffix + ".svg");
        Files.writeString(cost, chart("Visibility queries per write (server, connections)", groups, queries, "queries"));
        System.out.println("Plots written: " + latency.toAbsolutePath().normalize() + ", " + cost.toAbsolutePath().normalize());
    }

    static String chart(String title, List<String> groups, Map<String, double[]> series, String unit) {
        int width = 160 * Math.max(1, groups.size()) + 120;
        int height = 360;
        int left = 80;
        int top = 50;
        int plotHeight = 230;
        double max = series.values().stream().flatMapToDouble(java.util.Arrays::stream).filter(v -> !Double.isNaN(v))
                .max().orElse(1);
        max = niceCeiling(max);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\">%s</text>%n", left, title));
        for (int tick = 0; tick <= 4; tick++) {
            double value = max * tick / 4;
            int y = top + plotHeight - (int) (plotHeight * tick / 4.0);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    left, y, width - 20, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 6,
                    y + 4, format(value)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\">%s</text>%n",
                top + plotHeight / 2, top + plotHeight / 2, unit));
        int groupWidth = 160;
        int barWidth = (groupWidth - 40) / Math.max(1, series.size());
        for (int g = 0; g < groups.size(); g++) {
            int x0 = left + 20 + g * groupWidth;
            int s = 0;
            for (Map.Entry<String, double[]> entry : series.entrySet()) {
                double value = entry.getValue()[g];
                int barHeight = Double.isNaN(value) ? 0 : (int) (plotHeight * value / max);
                int x = x0 + s * barWidth;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                        x, top + plotHeight - barHeight, barWidth - 4, barHeight, COLOURS[s % COLOURS.length]));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%s</text>%n",
                        x + (barWidth - 4) / 2, top + plotHeight - barHeight - 4, format(value)));
                s++;
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x0 + (groupWidth - 40) / 2, top + plotHeight + 18, groups.get(g)));
        }
        int s = 0;
        for (String name : series.keySet()) {
            int y = top + plotHeight + 42 + 16 * s;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                    left, y - 10, COLOURS[s % COLOURS.length]));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", left + 18, y, name));
            s++;
        }
        return svg.append("</svg>\n").toString();
    }

    private static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(value, 1e-9))));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (value <= step * magnitude) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String format(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
