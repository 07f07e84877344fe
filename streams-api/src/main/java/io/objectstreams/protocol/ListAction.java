package io.objectstreams.protocol;

import java.util.Locale;

/**
 * What an event means for the set a subscription follows ({@code list_action}): the subject joined it, is still in
 * it and changed, left it, or was deleted while in it (G9).
 */
public enum ListAction {
    ADDED,
    CHANGED,
    REMOVED,
    DELETED;

    /** Spelled once: renders of events and frames ask for it on every message. */
    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The protocol spelling: {@code added}, {@code changed}, {@code removed} or {@code deleted}. */
    public String wireName() {
        return wireName;
    }

    /** Whether the client should refetch the subject ({@code fetch}): not when it left the set or is gone. */
    public boolean fetch() {
        return this == ADDED || this == CHANGED;
    }
}
