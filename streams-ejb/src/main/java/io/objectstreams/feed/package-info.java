/**
 * The one seam between the transports ({@code streams-web}) and this module: what a transport may read of the
 * outbox and the listener (cursor state, replay, the delivered cursor), its settings, and model labels. Nothing
 * else of this module is meant for the transports; the {@code internal} packages are this module's own.
 */
package io.objectstreams.feed;
