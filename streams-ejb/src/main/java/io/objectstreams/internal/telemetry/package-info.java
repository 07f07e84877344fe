/**
 * Metrics and delivery spans through the server's OpenTelemetry API (MicroProfile Telemetry), and the write's
 * {@code traceparent} on its outbox row. Only {@code OtelSink} names OpenTelemetry types, and it is loaded only
 * where the server provides them; everywhere else {@code Telemetry} records nothing and says so once.
 */
package io.objectstreams.internal.telemetry;
