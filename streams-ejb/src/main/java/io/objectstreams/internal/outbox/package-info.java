/**
 * The outbox write path: the single batched insert and the post-commit wakeup.
 * Nothing here reads outbox rows back; cursors and delivery belong to the listener.
 */
package io.objectstreams.internal.outbox;
