package io.objectstreams.protocol;

import java.util.Locale;

/**
 * Why a subscription must refetch its state ({@code resync_required}'s {@code reason}, G10): the server could not
 * tell it exactly what it missed, and says so instead of staying silent.
 */
public enum ResyncReason {
    /** An object subscription missed more events than {@code streams.replay-limit}. */
    OBJECT_REPLAY_LIMIT_EXCEEDED,
    /** A filter or model subscription's replay would be too long, or would name what the viewer may not read. */
    CURSOR_REPLAY_UNAVAILABLE,
    /** Events the subscription is owed were deleted by retention (G11). */
    CURSOR_PRUNED,
    /** The connection did not read fast enough and queued events were dropped (G15). */
    SLOW_CONSUMER,
    /** The server could not decide what a batch meant for the subscription. */
    DELIVERY_FAILED,
    /** The model's table was truncated (trigger capture): every object of it may be gone. */
    TRUNCATED;

    /** Spelled once: renders of events and frames ask for it on every message. */
    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The protocol spelling, e.g. {@code cursor_pruned}. */
    public String wireName() {
        return wireName;
    }
}
