package io.objectstreams.it.support.server;

import io.objectstreams.StreamBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicInteger;

/** An application's observer of {@link StreamBatch} that tests can make throw ({@link VisibilityFaultResource}). */
@ApplicationScoped
public class FailingBatchObserver {

    /** Batches still to fail on. */
    static final AtomicInteger FAILURES = new AtomicInteger();

    void onBatch(@Observes StreamBatch batch) {
        if (FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("An application observer fails on purpose (test fault)");
        }
    }
}
