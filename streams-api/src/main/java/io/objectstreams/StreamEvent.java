package io.objectstreams;

import java.time.Instant;
import java.util.List;

/**
 * One committed outbox row with its cursor, as every instance reads it after cursor assignment. This is
 * server-side data: transports turn it into subscription-relative messages and never send {@code actor}
 * to anybody.
 *
 * @param cursor        the row's position in the global, commit-ordered delivery sequence
 * @param model         the subject's model label
 * @param pk            the subject's primary key as text
 * @param facet         the part of the subject that changed
 * @param op            what happened to the source
 * @param changedFields attribute names that changed (empty for creates and deletes)
 * @param transactionId the PostgreSQL transaction that wrote the row; shared by the rows of one transaction
 * @param actor         the acting principal's name, or {@code null}
 * @param correlationId the action's correlation id, or {@code null}
 * @param recordedAt    when the row was written, just before its transaction committed
 * @param traceparent   the W3C {@code traceparent} of the span that wrote the row, or {@code null} (no span, or
 *                      metrics and traces off; see docs/operations.md)
 */
public record StreamEvent(long cursor, String model, String pk, String facet, EventOperation op,
                          List<String> changedFields, long transactionId, String actor, String correlationId,
                          Instant recordedAt, String traceparent) {

    public StreamEvent {
        changedFields = List.copyOf(changedFields);
    }

    /** An event whose write carried no trace context. */
    public StreamEvent(long cursor, String model, String pk, String facet, EventOperation op,
                       List<String> changedFields, long transactionId, String actor, String correlationId,
                       Instant recordedAt) {
        this(cursor, model, pk, facet, op, changedFields, transactionId, actor, correlationId, recordedAt, null);
    }

    /** The subject this event is about. */
    public ObjectRef subject() {
        return new ObjectRef(model, pk);
    }
}
