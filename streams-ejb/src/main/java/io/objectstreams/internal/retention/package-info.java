/**
 * Retention (G11): the scheduled bean that decides when the outbox is pruned and reports how the last run went,
 * and the pruner that deletes the oldest assigned rows in short batches under a database lock, then raises the
 * watermark. Only a prefix of the cursor order is ever deleted, and never a row without a cursor or the newest
 * assigned row, so "everything at or below the watermark is gone" stays exact. Nothing here assigns cursors,
 * delivers events or holds a session of its own: it works through the application's datasource, and the listener
 * and the transports only read the watermark it leaves.
 */
package io.objectstreams.internal.retention;
