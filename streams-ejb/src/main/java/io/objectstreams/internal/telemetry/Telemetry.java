package io.objectstreams.internal.telemetry;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.config.TelemetrySettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Metrics, delivery spans and the write's trace context, through the OpenTelemetry API where the server provides
 * MicroProfile Telemetry (WildFly, Payara 7), and nothing elsewhere (Payara 6 without it): the deployment works either
 * way and says once, at start, which it is. The names are in docs/operations.md.
 *
 * <p>Counters and gauges are read from the figures health already keeps ({@code HealthRegistry}) when the server's
 * exporter asks, so they cost nothing on the delivery path; only the two histograms record as things happen.
 */
@ApplicationScoped
public class Telemetry {

    private static final Logger LOG = Logger.getLogger(Telemetry.class.getName());
    private static final String API = "io.opentelemetry.api.OpenTelemetry";
    private static final String SINK = "io.objectstreams.internal.telemetry.OtelSink";

    @Inject
    StreamsConfig config;

    @Inject
    BeanManager beans;

    private volatile TelemetrySink sink = TelemetrySink.OFF;

    /** Starts with the application, so its line is logged at deployment and gauges exist before the first client. */
    void started(@Observes @Initialized(ApplicationScoped.class) Object application) {
        // Observing is enough: the container creates this bean to deliver the event.
    }

    @PostConstruct
    void start() {
        TelemetrySettings settings = config.telemetry();
        String off;
        if (!settings.enabled()) {
            off = TelemetrySettings.ENABLED.key() + " is false";
        } else if (!apiPresent()) {
            off = "this server provides no OpenTelemetry API (MicroProfile Telemetry)";
        } else {
            try {
                sink = (TelemetrySink) Class.forName(SINK, true, Telemetry.class.getClassLoader())
                        .getConstructor(BeanManager.class, TelemetrySettings.class).newInstance(beans, settings);
                off = sink.metricsOff();
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                LOG.log(Level.FINE, "OpenTelemetry could not be used", e);
                off = "the server's OpenTelemetry could not be used (" + e + ")";
            }
        }
        LOG.info(off == null ? "Object Streams metrics are on, through the server's OpenTelemetry (docs/operations.md)"
                : "Object Streams metrics are off: " + off);
    }

    @PreDestroy
    void stop() {
        sink.close();
        sink = TelemetrySink.OFF;
    }

    private static boolean apiPresent() {
        try {
            Class.forName(API, false, Telemetry.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }

    /** The writing request's span as a W3C {@code traceparent}, for its outbox rows; {@code null} without one. */
    public String traceparent() {
        return sink.traceparent();
    }

    /** An event was sent to a client over {@code transport}: the write-to-delivery latency. */
    public void sent(String transport, long recordedAtMillis) {
        sink.sent(transport, recordedAtMillis);
    }

    /** A batch was fanned out from {@code startNanos}: its time, and a span linked to the writes' spans. */
    public void fannedOut(long startNanos, List<StreamEvent> events) {
        sink.fannedOut(startNanos, events);
    }
}
