package io.objectstreams.internal.telemetry;

import io.objectstreams.StreamEvent;
import java.util.List;

/** Where {@link Telemetry} records: OpenTelemetry ({@code OtelSink}) or nowhere ({@link #OFF}). */
interface TelemetrySink {

    TelemetrySink OFF = new TelemetrySink() {
    };

    /** The current span's context as a W3C {@code traceparent}, or {@code null} when there is none. */
    default String traceparent() {
        return null;
    }

    /** An event was sent over {@code transport}; {@code recordedAtMillis} is its row's {@code created_at}. */
    default void sent(String transport, long recordedAtMillis) {
    }

    /** A batch was fanned out to this instance's connections, from {@code startNanos} ({@link System#nanoTime}). */
    default void fannedOut(long startNanos, List<StreamEvent> events) {
    }

    /** Why metrics are not recorded, or {@code null} when they are. */
    default String metricsOff() {
        return "nothing records them";
    }

    /** Stops observing this application's figures (undeploy). */
    default void close() {
    }
}
