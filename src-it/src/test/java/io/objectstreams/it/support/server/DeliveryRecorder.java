package io.objectstreams.it.support.server;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;

/** Records every {@link StreamBatch} this instance fires, in firing order, for tests to read over HTTP. */
@ApplicationScoped
public class DeliveryRecorder {

    private final List<StreamEvent> delivered = new ArrayList<>();
    private int batches;

    void onBatch(@Observes StreamBatch batch) {
        synchronized (delivered) {
            delivered.addAll(batch.events());
            batches++;
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
