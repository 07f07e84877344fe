/**
 * The public surface of Object Streams: the {@link io.objectstreams.Streamed} annotation, the
 * {@link io.objectstreams.StreamsPublisher} for writes JPA cannot see, and the value types and exceptions
 * application code handles. Nothing here touches the database or holds state.
 */
package io.objectstreams;
