/**
 * The outbox write path: the single batched insert, the post-commit wakeup and the programmatic publisher.
 * Nothing here reads outbox rows back; cursors and delivery belong to the listener.
 */
package io.objectstreams.internal.outbox;
