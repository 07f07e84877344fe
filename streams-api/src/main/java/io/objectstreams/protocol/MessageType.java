package io.objectstreams.protocol;

import java.util.Locale;

/** What a server message is ({@code type}); over SSE it is also the frame's {@code event:} name. */
public enum MessageType {
    SUBSCRIBED,
    UNSUBSCRIBED,
    EVENT,
    RESYNC_REQUIRED,
    ERROR;

    /** Spelled once: renders of events and frames ask for it on every message. */
    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The protocol spelling, e.g. {@code resync_required}. */
    public String wireName() {
        return wireName;
    }
}
