package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ResyncReason;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What this instance has sent its clients since it started: events, and resyncs by reason; for operators. */
final class DeliveryCounts {

    private final LongAdder delivered = new LongAdder();
    private final Map<String, LongAdder> resyncs = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> ended = new ConcurrentHashMap<>();

    /** An event was handed to the transport. */
    void delivered() {
        delivered.increment();
    }

    /** A {@code resync_required} was queued for a subscription. */
    void resync(ResyncReason reason) {
        resyncs.computeIfAbsent(reason.wireName(), r -> new LongAdder()).increment();
    }

    /** A connection of {@code transport} ended, for {@code cause}. */
    void ended(String transport, String cause) {
        ended.computeIfAbsent(transport + "." + cause, c -> new LongAdder()).increment();
    }

    /** Ended connections by {@code transport.cause}, in name order. */
    Map<String, Long> endedByCause() {
        Map<String, Long> byCause = new TreeMap<>();
        ended.forEach((cause, count) -> byCause.put(cause, count.sum()));
        return byCause;
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
