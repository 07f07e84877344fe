package io.objectstreams;

import java.util.List;
import java.util.Objects;

/**
 * One change to record through {@link StreamsPublisher}: a source operation on a subject, identified by
 * model label and primary key, on one facet, naming the attributes that changed.
 *
 * @param model         the subject's model label, such as {@code store.CustomerOrder}
 * @param pk            the subject's primary key as text
 * @param facet         the part of the subject that changed; {@link Streamed#OBJECT_FACET} for the object itself
 * @param op            what happened to the source
 * @param changedFields attribute names that changed; empty when unknown or not meaningful (creates, deletes)
 */
public record SourceEvent(String model, String pk, String facet, EventOperation op, List<String> changedFields) {

    public SourceEvent {
        requireText(model, "model");
        requireText(pk, "pk");
        requireText(facet, "facet");
        Objects.requireNonNull(op, "op");
        if (op == EventOperation.TRUNCATED) {
            throw new IllegalArgumentException("SourceEvent.op may not be TRUNCATED: only a capture trigger reports a"
                    + " truncated table; publish the subjects' own events instead");
        }
        changedFields = List.copyOf(changedFields == null ? List.of() : changedFields);
    }

    /** An update of the object itself. */
    public static SourceEvent updated(String model, Object pk, String... changedFields) {
        return new SourceEvent(model, String.valueOf(pk), Streamed.OBJECT_FACET, EventOperation.UPDATED,
                List.of(changedFields));
    }

    /** The creation of an object. */
    public static SourceEvent created(String model, Object pk) {
        return new SourceEvent(model, String.valueOf(pk), Streamed.OBJECT_FACET, EventOperation.CREATED, List.of());
    }

    /** The deletion of an object. */
    public static SourceEvent deleted(String model, Object pk) {
        return new SourceEvent(model, String.valueOf(pk), Streamed.OBJECT_FACET, EventOperation.DELETED, List.of());
    }

    /** The same event reported on another facet of its subject. */
    public SourceEvent onFacet(String newFacet) {
        return new SourceEvent(model, pk, newFacet, op, changedFields);
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("SourceEvent." + name + " must not be blank");
        }
    }
}
