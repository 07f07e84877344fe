/**
 * Binding of the {@code streams.*} MicroProfile Config keys: each key is declared once, with its default,
 * in {@link io.objectstreams.internal.config.StreamsConfig}, and validated at deployment. Nothing here reads
 * the database.
 */
package io.objectstreams.internal.config;
