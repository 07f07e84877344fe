package io.objectstreams.internal.outbox;

import io.objectstreams.EventOperation;
import java.util.List;

/**
 * One row to insert into {@code streams_outbox}: a coalesced source change, with the action's actor and
 * correlation id for its metadata. The transaction id and times are the database's.
 */
public record OutboxRow(String model, String pk, String facet, EventOperation op, List<String> changedFields,
                        String actor, String correlationId) {

    public OutboxRow {
        changedFields = List.copyOf(changedFields);
    }
}
