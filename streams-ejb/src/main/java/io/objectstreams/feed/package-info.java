/**
 * The one seam between the transports ({@code streams-web}) and this module: what a transport may read of the
 * outbox and the listener (cursor state, replay, the delivered cursor, model labels, the script that takes numbering
 * back below schema V7); every setting of the library, one record per feature, each key declared once as a
 * {@link io.objectstreams.internal.config.Setting}; and the two interfaces the transports call back through,
 * {@link io.objectstreams.feed.CaptureControl} (trigger capture's start, state and install script) and
 * {@link io.objectstreams.feed.DeliveryTelemetry} (each delivery and fan-out). Nothing else of this module is meant for
 * the transports, and {@code StructureTest} fails on a transport that imports anything else of it; the
 * {@code internal} packages are this module's own.
 */
package io.objectstreams.feed;
