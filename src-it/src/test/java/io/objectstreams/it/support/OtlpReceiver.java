package io.objectstreams.it.support;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A minimal OpenTelemetry collector for tests: accepts OTLP over HTTP with protobuf bodies ({@code /v1/metrics},
 * {@code /v1/traces}, {@code /v1/logs}) and keeps what a server exported, so a test can read its metrics and spans;
 * {@code GET /metrics} shows the newest value of each series as Prometheus text (the demo on WildFly).
 */
public final class OtlpReceiver implements AutoCloseable {

    private static final int KEPT = 20_000;

    private final HttpServer server;
    private final List<Metric> metrics = new CopyOnWriteArrayList<>();
    private final List<Span> spans = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    public static OtlpReceiver start() {
        return start(0);
    }

    /** Listens on {@code port} of the loopback interface (0: any free one). */
    public static OtlpReceiver start(int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/metrics", exchange -> {
                byte[] text = receiver.prometheusText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, text.length);
                try (var out = exchange.getResponseBody()) {
                    out.write(text);
                }
            });
            server.createContext("/", exchange -> {
                try (InputStream raw = exchange.getRequestBody();
                     InputStream body = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                             ? new java.util.zip.GZIPInputStream(raw) : raw) {
                    byte[] bytes = body.readAllBytes();
                    switch (exchange.getRequestURI().getPath()) {
                        case "/v1/metrics" -> {
                            ExportMetricsServiceRequest.parseFrom(bytes).getResourceMetricsList().forEach(r -> r
                                    .getScopeMetricsList().forEach(s -> receiver.metrics.addAll(s.getMetricsList())));
                            if (receiver.metrics.size() > KEPT) { // a long demo: the oldest exports go
                                receiver.metrics.subList(0, receiver.metrics.size() - KEPT / 2).clear();
                            }
                        }
                        case "/v1/traces" -> ExportTraceServiceRequest.parseFrom(bytes).getResourceSpansList()
                                .forEach(r -> r.getScopeSpansList().forEach(s -> receiver.spans.addAll(s.getSpansList())));
                        default -> { }
                    }
                    exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                    exchange.sendResponseHeaders(200, -1);
                } catch (IOException | RuntimeException e) {
                    receiver.failures.add(exchange.getRequestURI().getPath() + ": " + e);
                    exchange.sendResponseHeaders(400, -1);
                } finally {
                    exchange.close();
                }
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The newest exported value of a sum or gauge with exactly these attributes, if any was exported. */
    public Optional<Long> latest(String name, Map<String, String> attributes) {
        List<Metric> exported = new ArrayList<>(metrics);
        for (int i = exported.size() - 1; i >= 0; i--) {
            Metric metric = exported.get(i);
            if (!metric.getName().equals(name)) {
                continue;
            }
            List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
                    : metric.hasGauge() ? metric.getGauge().getDataPointsList() : List.of();
            for (NumberDataPoint point : points) {
                if (attributes(point.getAttributesList()).equals(attributes)) {
                    return Optional.of(point.hasAsInt() ? point.getAsInt() : (long) point.getAsDouble());
                }
            }
        }
        return Optional.empty();
    }

    /** The newest exported count of a histogram with exactly these attributes, if any was exported. */
    public Optional<Long> histogramCount(String name, Map<String, String> attributes) {
        List<Metric> exported = new ArrayList<>(metrics);
        for (int i = exported.size() - 1; i >= 0; i--) {
            Metric metric = exported.get(i);
            if (metric.getName().equals(name) && metric.hasHistogram()) {
                for (var point : metric.getHistogram().getDataPointsList()) {
                    if (attributes(point.getAttributesList()).equals(attributes)) {
                        return Optional.of(point.getCount());
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The newest value of every series exported so far, in Prometheus' text format (dots become underscores; a
     * histogram shows its count and sum): for reading what a server pushed without a collector (the demo).
     */
    public String prometheusText() {
        Map<String, String> lines = new java.util.TreeMap<>();
        for (Metric metric : metrics) {
            String name = metric.getName().replace('.', '_');
            List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
                    : metric.hasGauge() ? metric.getGauge().getDataPointsList() : List.of();
            for (NumberDataPoint point : points) {
                String series = name + labels(point.getAttributesList());
                lines.put(series, series + " " + (point.hasAsInt() ? Long.toString(point.getAsInt())
                        : Double.toString(point.getAsDouble())));
            }
            if (metric.hasHistogram()) {
                for (var point : metric.getHistogram().getDataPointsList()) {
                    String labels = labels(point.getAttributesList());
                    lines.put(name + "_count" + labels, name + "_count" + labels + " " + point.getCount());
                    lines.put(name + "_sum" + labels, name + "_sum" + labels + " " + point.getSum());
                }
            }
        }
        return String.join("\n", lines.values()) + "\n";
    }

    private static String labels(List<KeyValue> values) {
        if (values.isEmpty()) {
            return "";
        }
        return attributes(values).entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey().replace('.', '_') + "=\"" + e.getValue().replace("\"", "\\\"") + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** Requests that could not be read, for a test's failure message. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Names of every metric exported so far. */
    public List<String> metricNames() {
        return metrics.stream().map(Metric::getName).distinct().sorted().toList();
    }

    public List<Span> spans() {
        return List.copyOf(spans);
    }

    public static String hex(com.google.protobuf.ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    private static Map<String, String> attributes(List<KeyValue> values) {
        return values.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().hasStringValue()
                ? kv.getValue().getStringValue() : kv.getValue().toString().trim()));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
