package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;

/**
 * One event handed to a subscription, with whether its subject matches the subscription now (exists, is visible to
 * the viewer and matches the filter); the subscription's members then decide its {@code list_action} (G9).
 */
record Delivery(StreamEvent event, boolean matches) {
}
