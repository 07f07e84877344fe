package io.objectstreams.protocol;

import java.util.Locale;

/** What a server message is ({@code type}); over SSE it is also the frame's {@code event:} name. */
public enum MessageType {
    SUBSCRIBED,
    UNSUBSCRIBED,
    EVENT,
    RESYNC_REQUIRED,
    ERROR;

    /** The protocol spelling, e.g. {@code resync_required}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
