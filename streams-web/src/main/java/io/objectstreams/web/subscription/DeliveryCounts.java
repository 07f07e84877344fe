package io.objectstreams.web.subscription;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What this instance has sent its clients since it started: events, and resyncs by reason; for operators. */
final class DeliveryCounts {

    private final LongAdder delivered = new LongAdder();
    private final Map<String, LongAdder> resyncs = new ConcurrentHashMap<>();

    /** An event was handed to the transport. */
    void delivered() {
        delivered.increment();
    }

    /** A {@code resync_required} was queued for a subscription. */
    void resync(String reason) {
        resyncs.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    long deliveredEvents() {
        return delivered.sum();
    }

    /** By reason, in name order. */
    Map<String, Long> resyncsByReason() {
        Map<String, Long> byReason = new TreeMap<>();
        resyncs.forEach((reason, count) -> byReason.put(reason, count.sum()));
        return byReason;
    }
}
