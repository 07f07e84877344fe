package io.objectstreams;

import java.util.Locale;

/** What happened to a source: the {@code op} of an outbox row and of an event. */
public enum EventOperation {
    CREATED,
    UPDATED,
    DELETED,
    /**
     * Every object of the model may have gone at once: a capture trigger's table was truncated. Never delivered as
     * an event: every subscription of the model is told to resync ({@code truncated}).
     */
    TRUNCATED;

    /** The protocol spelling: {@code created}, {@code updated} or {@code deleted}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses the protocol spelling.
     *
     * @throws IllegalArgumentException naming the accepted values when {@code value} is not one of them
     */
    public static EventOperation fromWireName(String value) {
        for (EventOperation op : values()) {
            if (op.wireName().equals(value)) {
                return op;
            }
        }
        throw new IllegalArgumentException("Unknown operation '" + value
                + "': expected created, updated, deleted or truncated");
    }
}
