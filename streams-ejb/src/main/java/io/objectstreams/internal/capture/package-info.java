/**
 * Transactional capture: the recorder behind the JPA entity listener and {@code StreamsPublisher}, the
 * per-transaction buffer, attribute diffing and G2 coalescing. It writes only through the outbox writer,
 * and only from the transaction's interposed synchronization.
 */
package io.objectstreams.internal.capture;
