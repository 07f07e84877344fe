package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;

/**
 * One event handed to a subscription, with whether its subject matches the subscription now (exists, is visible to
 * the viewer and matches the filter); the subscription's members then decide its {@code list_action} (G9).
 *
 * @param latest whether the state now is the state after this event: false for a row whose subject a later
 *               transaction of its batch wrote again, which therefore cannot add the subject (G17)
 */
record Delivery(StreamEvent event, boolean matches, boolean latest) {

    Delivery(StreamEvent event, boolean matches) {
        this(event, matches, true);
    }
}
