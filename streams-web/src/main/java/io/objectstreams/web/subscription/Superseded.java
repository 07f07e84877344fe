package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.ObjectRef;
import io.objectstreams.StreamEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * A batch's events without those a later delete in the same batch supersedes, and for each subject deleted in it the
 * transactions of its superseded events.
 *
 * @param events     the events a fan-out decides, in cursor order
 * @param superseded by subject deleted in the batch, the transactions its delete superseded, or null for none
 */
record Superseded(List<StreamEvent> events, Map<ObjectRef, long[]> superseded) {

    /**
     * The batch without the events a later delete in the same batch supersedes. Membership is decided against
     * the database as it is now, where a deleted object no longer exists: its earlier events could only be
     * reported as leaving the set. Dropping them, the delete reaches whoever had the object (as {@code deleted}),
     * and an object created and deleted within one batch, which nobody was told about, has no effect. Each delete
     * keeps the transactions of the events it superseded ({@link Subscription#unaccounted}); none when one of them
     * created the object, which then nobody can have held before the batch.
     */
    static Superseded of(List<StreamEvent> batch) {
        Map<ObjectRef, Long> deletedAt = new HashMap<>();
        for (StreamEvent event : batch) {
            if (event.op() == EventOperation.DELETED) {
                deletedAt.put(event.subject(), event.cursor());
            }
        }
        if (deletedAt.isEmpty()) {
            return new Superseded(batch, Map.of());
        }
        List<StreamEvent> kept = new ArrayList<>();
        Map<ObjectRef, long[]> superseded = new HashMap<>();
        for (StreamEvent event : batch) {
            if (event.op() == EventOperation.DELETED || event.cursor() > deletedAt.getOrDefault(event.subject(), 0L)) {
                kept.add(event);
            } else {
                long[] before = superseded.getOrDefault(event.subject(), Delivery.NONE);
                superseded.put(event.subject(), event.op() == EventOperation.CREATED || before == null ? null
                        : LongStream.concat(Arrays.stream(before), LongStream.of(event.transactionId())).toArray());
            }
        }
        return new Superseded(kept, superseded);
    }

    /** For a delete, the transactions of the events it superseded ({@link Delivery#NONE} for none). */
    long[] supersededBy(StreamEvent event) {
        long[] transactions = event.op() == EventOperation.DELETED ? superseded.get(event.subject()) : null;
        return transactions == null ? Delivery.NONE : transactions;
    }
}
