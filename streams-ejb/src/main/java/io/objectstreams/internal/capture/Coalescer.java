package io.objectstreams.internal.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.Streamed;
import io.objectstreams.internal.outbox.OutboxRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Folds a transaction's changes into one row per (model, pk, facet), by the rules of G2:
 * created+updated is created, updated+updated is updated with the union of fields, updated+deleted is
 * deleted, created+deleted is nothing. A subject created or deleted in the transaction needs no facet
 * rows beside that: a client refetches it (or drops it) anyway, so those are folded away too.
 */
final class Coalescer {

    private record Key(String model, String pk, String facet) {
    }

    private static final class Pending {
        EventOperation op;
        final Set<String> fields = new LinkedHashSet<>();
        String actor;
        String correlationId;
    }

    private final Map<Key, Pending> rows = new LinkedHashMap<>();
    /** Subjects whose object row was created or deleted here, including those created and deleted again. */
    private final Set<Key> bornOrGone = new HashSet<>();

    void add(OutboxRow change) {
        Key key = new Key(change.model(), change.pk(), change.facet());
        if (change.op() != EventOperation.UPDATED && key.facet().equals(Streamed.OBJECT_FACET)) {
            bornOrGone.add(key);
        }
        Pending earlier = rows.get(key);
        if (earlier == null) {
            rows.put(key, start(change));
            return;
        }
        EventOperation folded = fold(earlier.op, change.op());
        if (folded == null) {
            rows.remove(key);
            return;
        }
        earlier.op = folded;
        if (folded == EventOperation.UPDATED) {
            earlier.fields.addAll(change.changedFields());
        } else {
            earlier.fields.clear();
        }
        earlier.actor = change.actor();
        earlier.correlationId = change.correlationId();
    }

    List<OutboxRow> rows() {
        List<OutboxRow> result = new ArrayList<>(rows.size());
        rows.forEach((key, row) -> {
            if (!key.facet().equals(Streamed.OBJECT_FACET) && subjectCreatedOrDeleted(key)) {
                return;
            }
            result.add(new OutboxRow(key.model(), key.pk(), key.facet(), row.op, List.copyOf(row.fields),
                    row.actor, row.correlationId));
        });
        return result;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    private boolean subjectCreatedOrDeleted(Key facetKey) {
        return bornOrGone.contains(new Key(facetKey.model(), facetKey.pk(), Streamed.OBJECT_FACET));
    }

    private static Pending start(OutboxRow change) {
        Pending row = new Pending();
        row.op = change.op();
        if (change.op() == EventOperation.UPDATED) {
            row.fields.addAll(change.changedFields());
        }
        row.actor = change.actor();
        row.correlationId = change.correlationId();
        return row;
    }

    /** The op of two successive changes to one key, or null when they cancel out. */
    static EventOperation fold(EventOperation earlier, EventOperation later) {
        return switch (earlier) {
            case CREATED -> later == EventOperation.DELETED ? null : EventOperation.CREATED;
            case UPDATED -> later == EventOperation.DELETED ? EventOperation.DELETED : EventOperation.UPDATED;
            // Deleted, then the same key written again: the subject existed before and exists after.
            case DELETED -> later == EventOperation.DELETED ? EventOperation.DELETED : EventOperation.UPDATED;
            case TRUNCATED -> throw new IllegalArgumentException("no capture of this path writes truncated");
        };
    }
}
