package io.objectstreams.it.support.server;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;

/**
 * Records every {@link StreamBatch} this instance fires, in firing order, for tests to read over HTTP; and, like an
 * application's careless observer, throws for the next {@link #FAILURES} batches once it has recorded them.
 */
@ApplicationScoped
public class DeliveryRecorder {

    static final java.util.concurrent.atomic.AtomicInteger FAILURES = new java.util.concurrent.atomic.AtomicInteger();

    private final List<StreamEvent> delivered = new ArrayList<>();
    private int batches;

    void onBatch(@Observes StreamBatch batch) {
        synchronized (delivered) {
            delivered.addAll(batch.events());
            batches++;
        }
        if (FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("An application observer of StreamBatch failed (test)");
        }
    }

    public List<StreamEvent> delivered() {
        synchronized (delivered) {
            return List.copyOf(delivered);
        }
    }

    public int batches() {
        synchronized (delivered) {
            return batches;
        }
    }
}
