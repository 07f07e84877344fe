/**
 * The subscription engine, shared by every transport: connections and their subscriptions, request parsing,
 * protocol messages and errors, membership, replay, fan-out of each batch, and the byte-bounded outbound queues.
 * A transport implements {@link io.objectstreams.web.subscription.Subscriber} and hands requests in; nothing here
 * knows WebSocket or SSE, and nothing here writes to the database.
 */
package io.objectstreams.web.subscription;
