package io.objectstreams.internal.telemetry;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.feed.DeliveryTelemetry;
import io.objectstreams.feed.TelemetrySettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
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
public class Telemetry implements DeliveryTelemetry {

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
        TelemetrySettings settings;
        try {
            settings = config.telemetry();
        } catch (RuntimeException invalid) {
            // A setting that cannot work stops the deployment where its key is named (G14), not here, inside CDI's
            // start-up event, where servers print only the bean's name.
            LOG.log(Level.FINE, "Configuration not readable; metrics stay off", invalid);
            return;
        }
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
                Throwable cause = e instanceof InvocationTargetException && e.getCause() != null
                        ? e.getCause() : e;
                LOG.log(Level.FINE, "OpenTelemetry could not be used", cause);
                off = cause instanceof IllegalStateException ? cause.getMessage()
                        : "the server's OpenTelemetry could not be used (" + cause + ")";
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

    /*
     * Each call below is on a path that must not fail for telemetry's sake (a commit, a send's completion, a fan-out):
     * whatever the server's OpenTelemetry throws is logged at FINE and nothing else happens.
     */

    /** The writing request's span as a W3C {@code traceparent}, for its outbox rows; {@code null} without one. */
    public String traceparent() {
        try {
            return sink.traceparent();
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "No trace context for the outbox rows", e);
            return null;
        }
    }

    /** An event was sent to a client over {@code transport}: the write-to-delivery latency. */
    @Override
    public void sent(String transport, long recordedAtMillis) {
        try {
            sink.sent(transport, recordedAtMillis);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "Recording a delivery's latency failed", e);
        }
    }

    /** A batch was fanned out from {@code startNanos}: its time, and a span linked to the writes' spans. */
    @Override
    public void fannedOut(long startNanos, List<StreamEvent> events) {
        try {
            sink.fannedOut(startNanos, events);
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "Recording a fan-out failed", e);
        }
    }
}
