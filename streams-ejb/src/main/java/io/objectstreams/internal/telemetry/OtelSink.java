package io.objectstreams.internal.telemetry;

import io.objectstreams.StreamEvent;
import io.objectstreams.feed.TelemetrySettings;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.internal.health.ListenerReport;
import io.objectstreams.internal.health.SessionReport;
import io.objectstreams.internal.health.TransportCounts;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableDoubleMeasurement;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@link TelemetrySink} over the OpenTelemetry instance the server gives the application as a CDI bean (MicroProfile
 * Telemetry). Loaded by name only where the API exists. It calls nothing newer than the API of Payara 6 (1.29) unless
 * guarded, since the server's API, not the one compiled against, is the one that runs.
 */
final class OtelSink implements TelemetrySink {

    private static final Logger LOG = Logger.getLogger(OtelSink.class.getName());
    private static final String SCOPE = "io.objectstreams";
    private static final String NOOP_METER = "io.opentelemetry.api.metrics.DefaultMeter";

    static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("objectstreams.transport");
    static final AttributeKey<String> REASON = AttributeKey.stringKey("objectstreams.resync.reason");
    static final AttributeKey<String> CAUSE = AttributeKey.stringKey("objectstreams.connection.end_cause");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> SETTING = AttributeKey.stringKey("objectstreams.setting");
    static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    static final AttributeKey<Long> FIRST_CURSOR = AttributeKey.longKey("objectstreams.cursor.first");
    static final AttributeKey<Long> LAST_CURSOR = AttributeKey.longKey("objectstreams.cursor.last");
    static final AttributeKey<Long> UNLINKED = AttributeKey.longKey("objectstreams.links.dropped");

    /** Seconds, as OpenTelemetry's semantic conventions advise for durations. */
    private static final List<Double> BUCKETS = List.of(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25,
            0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0);

    private static final Attributes DELIVER = Attributes.of(MESSAGING_SYSTEM, "objectstreams", OPERATION_NAME,
            "deliver");
    private static final Attributes WEBSOCKET = DELIVER.toBuilder().put(TRANSPORT, "websocket").build();
    private static final Attributes SSE = DELIVER.toBuilder().put(TRANSPORT, "sse").build();

    private final Tracer tracer;
    private final int maxLinks;
    private final String metricsOff;
    private final DoubleHistogram latency;
    private final DoubleHistogram fanOut;
    private final List<AutoCloseable> observers = new ArrayList<>();

    public OtelSink(BeanManager beans, TelemetrySettings settings) {
        Instance<OpenTelemetry> found = beans.createInstance().select(OpenTelemetry.class);
        if (found.isAmbiguous()) {
            throw new IllegalStateException("more than one OpenTelemetry bean is visible to the application");
        }
        if (!found.isResolvable()) {
            throw new IllegalStateException("the server offers no OpenTelemetry bean (enable MicroProfile Telemetry)");
        }
        OpenTelemetry otel = found.get();
        maxLinks = settings.maxLinks();
        tracer = otel.getTracer(SCOPE);
        Meter meter = otel.getMeter(SCOPE);
        LOG.fine(() -> "OpenTelemetry " + otel.getClass().getName() + ", meter " + meter.getClass().getName());
        metricsOff = metricsOff(meter);
        latency = histogram(meter.histogramBuilder("objectstreams.delivery.latency").setUnit("s")
                .setDescription("From an event's outbox row (created_at) to its send to a client, replays included"));
        fanOut = histogram(meter.histogramBuilder("messaging.process.duration").setUnit("s")
                .setDescription("How long one batch took to fan out to this instance's subscriptions"));
        observe(meter);
    }

    /**
     * Why nothing will be exported, or {@code null}: MicroProfile Telemetry keeps its SDK off unless
     * {@code otel.sdk.disabled=false}, and some servers (Payara 7) hand out a delegating meter even then, so the
     * configuration is asked as well as the meter. Instruments are registered either way; they cost nothing when off.
     */
    private static String metricsOff(Meter meter) {
        Config config = ConfigProvider.getConfig();
        boolean sdkOff = config.getOptionalValue("otel.sdk.disabled", String.class)
                .map(value -> !value.trim().equalsIgnoreCase("false")).orElse(true);
        if (meter.getClass().getName().equals(NOOP_METER) || sdkOff) {
            return "the server's OpenTelemetry exports nothing (MicroProfile Telemetry keeps its SDK off until"
                    + " otel.sdk.disabled=false)";
        }
        if (config.getOptionalValue("otel.metrics.exporter", String.class).orElse("").trim().equals("none")) {
            return "otel.metrics.exporter is none";
        }
        return null;
    }

    private static DoubleHistogram histogram(DoubleHistogramBuilder builder) {
        try {
            builder.setExplicitBucketBoundariesAdvice(BUCKETS);
        } catch (NoSuchMethodError olderApi) {
            // API before 1.32 (Payara 6): the SDK's default buckets, which assume milliseconds
        }
        return builder.build();
    }

    /** Counters and gauges, read from what health keeps when the exporter collects. */
    private void observe(Meter meter) {
        HealthRegistry figures = HealthRegistry.application();
        counter(meter, "messaging.client.sent.messages", "{event}", "Events sent to clients",
                m -> figures.report(HealthRegistry.TRANSPORTS).ifPresent(t -> byKey(m, DELIVER, TRANSPORT,
                        t.deliveredByTransport())));
        counter(meter, "objectstreams.resyncs", "{message}", "resync_required messages queued, by reason",
                m -> sessions(figures).ifPresent(s -> byKey(m, Attributes.empty(), REASON, s.resyncsByReason())));
        counter(meter, "objectstreams.connections.opened", "{connection}", "Connections admitted, by transport",
                m -> figures.report(HealthRegistry.TRANSPORTS).ifPresent(t -> byKey(m, Attributes.empty(), TRANSPORT,
                        t.openedByTransport())));
        counter(meter, "objectstreams.connections.ended", "{connection}", "Connections ended, by transport and cause",
                m -> figures.report(HealthRegistry.TRANSPORTS).ifPresent(t -> t.endedByCause().forEach((key, count) -> {
                    int dot = key.indexOf('.');
                    m.record(count, Attributes.of(TRANSPORT, key.substring(0, dot), CAUSE, key.substring(dot + 1)));
                })));
        counter(meter, "objectstreams.refusals", "{refusal}", "Requests and connections refused, by error code",
                m -> figures.report(HealthRegistry.TRANSPORTS).ifPresent(t -> byKey(m, Attributes.empty(), ERROR_TYPE,
                        t.refusalsByCode())));
        counter(meter, "objectstreams.refusals.limits", "{refusal}", "Refusals by the setting whose limit refused them",
                m -> figures.report(HealthRegistry.TRANSPORTS).ifPresent(t -> byKey(m, Attributes.empty(), SETTING,
                        t.refusalsBySetting())));
        counter(meter, "objectstreams.events.dropped", "{event}", "Queued events dropped for clients too slow to read",
                m -> sessions(figures).ifPresent(s -> m.record(s.droppedEvents())));
        upDown(meter, "objectstreams.sessions", "{session}", "Open client connections, by transport",
                m -> sessions(figures).ifPresent(s -> {
                    m.record(Math.max(0, s.sessions() - s.sseSessions()), Attributes.of(TRANSPORT, "websocket"));
                    m.record(s.sseSessions(), Attributes.of(TRANSPORT, "sse"));
                }));
        upDown(meter, "objectstreams.subscriptions", "{subscription}", "Active subscriptions, by transport",
                m -> sessions(figures).ifPresent(s -> {
                    m.record(Math.max(0, s.subscriptions() - s.sseSubscriptions()),
                            Attributes.of(TRANSPORT, "websocket"));
                    m.record(s.sseSubscriptions(), Attributes.of(TRANSPORT, "sse"));
                }));
        upDown(meter, "objectstreams.outbound.queued", "By", "Bytes queued for clients, charged to the server's budget",
                m -> sessions(figures).ifPresent(s -> m.record(s.queuedBytes())));
        upDown(meter, "objectstreams.backlog.rows", "{row}", "Committed outbox rows still without a cursor",
                m -> listener(figures, ListenerReport::backlogRows).ifPresent(m::record));
        gauge(meter, "objectstreams.backlog.age", "s", "How long the oldest row without a cursor has waited",
                m -> listener(figures, r -> r.oldestBacklogAge() == null ? -1L
                        : r.backlogRows() == 0 ? 0L : r.oldestBacklogAge().toMillis())
                        .ifPresent(ms -> m.record(ms / 1000.0)));
        longGauge(meter, "objectstreams.cursor.last_assigned", "{cursor}", "The highest cursor known to be assigned",
                m -> listener(figures, ListenerReport::lastAssignedCursor).ifPresent(m::record));
        longGauge(meter, "objectstreams.cursor.last_delivered", "{cursor}",
                "The last cursor handed to this instance's transports",
                m -> listener(figures, ListenerReport::lastDeliveredCursor).ifPresent(m::record));
    }

    private static Optional<SessionReport> sessions(HealthRegistry figures) {
        return figures.report(HealthRegistry.SESSIONS);
    }

    /** A listener figure, while the listener reports one it knows (not -1). */
    private static Optional<Long> listener(HealthRegistry figures, Function<ListenerReport, Long> figure) {
        return figures.report(HealthRegistry.LISTENER).map(figure).filter(value -> value >= 0);
    }

    private static void byKey(ObservableLongMeasurement m, Attributes base, AttributeKey<String> key,
                              Map<String, Long> counts) {
        counts.forEach((name, count) -> m.record(count, base.toBuilder().put(key, name).build()));
    }

    private void counter(Meter meter, String name, String unit, String doc, Consumer<ObservableLongMeasurement> read) {
        observers.add(meter.counterBuilder(name).setUnit(unit).setDescription(doc).buildWithCallback(read));
    }

    private void upDown(Meter meter, String name, String unit, String doc, Consumer<ObservableLongMeasurement> read) {
        observers.add(meter.upDownCounterBuilder(name).setUnit(unit).setDescription(doc).buildWithCallback(read));
    }

    private void longGauge(Meter meter, String name, String unit, String doc,
                           Consumer<ObservableLongMeasurement> read) {
        observers.add(meter.gaugeBuilder(name).ofLongs().setUnit(unit).setDescription(doc).buildWithCallback(read));
    }

    private void gauge(Meter meter, String name, String unit, String doc,
                       Consumer<ObservableDoubleMeasurement> read) {
        observers.add(meter.gaugeBuilder(name).setUnit(unit).setDescription(doc).buildWithCallback(read));
    }

    @Override
    public String metricsOff() {
        return metricsOff;
    }

    @Override
    public String traceparent() {
        SpanContext context = Span.current().getSpanContext();
        return context.isValid() ? "00-" + context.getTraceId() + "-" + context.getSpanId() + "-"
                + context.getTraceFlags().asHex() : null;
    }

    @Override
    public void sent(String transport, long recordedAtMillis) {
        latency.record(Math.max(0, System.currentTimeMillis() - recordedAtMillis) / 1000.0,
                transport.equals("sse") ? SSE : WEBSOCKET);
    }

    /**
     * Records the batch's fan-out time, and a span for it linked to the spans of the writes it carries: links, not a
     * parent, since one write reaches many subscribers and one batch carries many writes. A batch whose writes carried
     * no trace context gets no span.
     */
    @Override
    public void fannedOut(long startNanos, List<StreamEvent> events) {
        long nanos = System.nanoTime() - startNanos;
        fanOut.record(nanos / 1e9, DELIVER);
        Set<String> parents = new LinkedHashSet<>();
        for (StreamEvent event : events) {
            if (event.traceparent() != null) {
                parents.add(event.traceparent());
            }
        }
        if (parents.isEmpty() || events.isEmpty()) {
            return;
        }
        SpanBuilder span = tracer.spanBuilder("objectstreams deliver").setNoParent().setSpanKind(SpanKind.CONSUMER)
                .setStartTimestamp(System.currentTimeMillis() * 1_000_000 - nanos, TimeUnit.NANOSECONDS)
                .setAllAttributes(DELIVER)
                .setAttribute(OPERATION_TYPE, "process")
                .setAttribute(BATCH_COUNT, (long) events.size())
                .setAttribute(FIRST_CURSOR, events.get(0).cursor())
                .setAttribute(LAST_CURSOR, events.get(events.size() - 1).cursor());
        int linked = 0;
        for (String parent : parents) {
            if (linked == maxLinks) {
                break;
            }
            SpanContext context = parse(parent);
            if (context != null) {
                span.addLink(context);
                linked++;
            }
        }
        if (parents.size() > maxLinks) {
            span.setAttribute(UNLINKED, (long) (parents.size() - maxLinks));
        }
        span.startSpan().end();
    }

    /** A stored {@code traceparent} ({@code 00-<32 hex>-<16 hex>-<2 hex>}), or {@code null} if it is not one. */
    static SpanContext parse(String traceparent) {
        if (traceparent.length() != 55 || !traceparent.startsWith("00-") || traceparent.charAt(35) != '-'
                || traceparent.charAt(52) != '-' || hex(traceparent.charAt(53)) < 0
                || hex(traceparent.charAt(54)) < 0) {
            return null;
        }
        SpanContext context = SpanContext.createFromRemoteParent(traceparent.substring(3, 35),
                traceparent.substring(36, 52), TraceFlags.fromHex(traceparent, 53), TraceState.getDefault());
        return context.isValid() ? context : null;
    }

    private static int hex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' ? Character.digit(c, 16) : -1;
    }

    @Override
    public void close() {
        for (AutoCloseable observer : observers) {
            try {
                observer.close();
            } catch (Exception e) {
                LOG.log(Level.FINE, "Closing a metrics callback failed", e);
            }
        }
        observers.clear();
    }
}
