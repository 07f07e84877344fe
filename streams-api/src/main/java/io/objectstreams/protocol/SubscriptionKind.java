package io.objectstreams.protocol;

import java.util.Locale;
import java.util.Optional;

/** What a subscription follows ({@code kind}): one object, the objects a filter matches, or a whole model. */
public enum SubscriptionKind {
    OBJECT,
    FILTER,
    MODEL;

    /** Spelled once: renders of events and frames ask for it on every message. */
    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The protocol spelling: {@code object}, {@code filter} or {@code model}. */
    public String wireName() {
        return wireName;
    }

    /** The kind a client named, or empty when it names none of them. */
    public static Optional<SubscriptionKind> fromWireName(String value) {
        for (SubscriptionKind kind : values()) {
            if (kind.wireName().equals(value)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
