package io.objectstreams.feed;

import io.objectstreams.StreamEvent;
import java.util.List;

/**
 * What the transports tell telemetry of their deliveries. Neither call fails for telemetry's sake: what the server's
 * OpenTelemetry throws is logged at FINE and nothing else happens.
 */
public interface DeliveryTelemetry {

    /** An event was sent to a client over {@code transport}: the write-to-delivery latency. */
    void sent(String transport, long recordedAtMillis);

    /** A batch was fanned out from {@code startNanos}: its time, and a span linked to the writes' spans. */
    void fannedOut(long startNanos, List<StreamEvent> events);
}
