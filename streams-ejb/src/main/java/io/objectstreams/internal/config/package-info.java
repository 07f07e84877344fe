/**
 * Binding of the {@code streams.*} MicroProfile Config keys: how a key is declared ({@link
 * io.objectstreams.internal.config.Setting}: key, default, parser with bounds, doc line, deprecated names), how its
 * text is validated ({@code ConfigRules}) and read ({@link io.objectstreams.internal.config.ConfigValues}). The
 * settings themselves are records of the {@code io.objectstreams.feed} package, one per feature, each building itself
 * from the values at deployment; {@code docs/configuration.md} lists every key. Durations everywhere follow
 * {@link io.objectstreams.internal.config.Durations}. Nothing here reads the database.
 */
package io.objectstreams.internal.config;
