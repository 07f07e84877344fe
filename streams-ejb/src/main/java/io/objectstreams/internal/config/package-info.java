/**
 * Binding of the {@code streams.*} MicroProfile Config keys. Each key is declared once, as a {@link
 * io.objectstreams.internal.config.Setting} (key, default, parser with bounds, doc line, deprecated names) on the
 * record of the feature that reads it, and that record builds itself from
 * {@link io.objectstreams.internal.config.ConfigValues} at deployment; {@code docs/configuration.md} lists every key.
 * Durations everywhere follow {@link io.objectstreams.internal.config.Durations}. Nothing here reads the database.
 */
package io.objectstreams.internal.config;
