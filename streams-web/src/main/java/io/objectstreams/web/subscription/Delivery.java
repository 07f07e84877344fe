package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;

/**
 * One event handed to a subscription, with whether its subject matches the subscription now (exists, is visible to
 * the viewer and matches the filter); the subscription's members then decide its {@code list_action} (G9). A delete
 * also carries the transactions of the same object's events it superseded in its batch.
 */
record Delivery(StreamEvent event, boolean matches, long[] superseded) {

    static final long[] NONE = new long[0];

    Delivery(StreamEvent event, boolean matches) {
        this(event, matches, NONE);
    }
}
