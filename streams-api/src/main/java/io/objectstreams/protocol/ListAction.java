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

    /** The protocol spelling: {@code added}, {@code changed}, {@code removed} or {@code deleted}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the client should refetch the subject ({@code fetch}): not when it left the set or is gone. */
    public boolean fetch() {
        return this == ADDED || this == CHANGED;
    }
}
