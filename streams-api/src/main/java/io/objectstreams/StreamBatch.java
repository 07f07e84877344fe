package io.objectstreams;

import java.util.List;

/**
 * The CDI event each server instance fires, on its delivery thread, for every batch of newly assigned
 * cursors: events in strictly increasing, gap-free cursor order, each cursor exactly once per instance
 * (G5, G7). Observe it with {@code @Observes StreamBatch}. The delivery thread that fires it is not the
 * thread that assigns cursors, so a slow observer delays this instance's delivery and nothing else; observers
 * should still return quickly, and should not throw: CDI skips the observers after a throwing one. The transports
 * are not among them; they are handed each batch before this event is fired. A throwing observer is logged and
 * later batches are delivered.
 *
 * @param events the batch, never empty, ordered by cursor
 */
public record StreamBatch(List<StreamEvent> events) {

    public StreamBatch {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a StreamBatch is never empty");
        }
        events = List.copyOf(events);
    }

    public long firstCursor() {
        return events.get(0).cursor();
    }

    public long lastCursor() {
        return events.get(events.size() - 1).cursor();
    }
}
