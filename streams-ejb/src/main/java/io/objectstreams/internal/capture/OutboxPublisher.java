package io.objectstreams.internal.capture;

import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsAction;
import io.objectstreams.StreamsPublisher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The injectable {@link StreamsPublisher}: buffers events on the current transaction beside captured changes. */
@ApplicationScoped
@StreamsAction
public class OutboxPublisher implements StreamsPublisher {

    @Inject
    TransactionalChangeRecorder recorder;

    @Override
    public void publish(SourceEvent event) {
        recorder.publish(event);
    }
}
