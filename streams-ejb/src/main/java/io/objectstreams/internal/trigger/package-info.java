/**
 * Trigger capture (G3): PostgreSQL triggers, generated from an entity's JPA mapping, that write the outbox rows of
 * every write to its table, JPA or not; installed by the migrator or by a DBA, and checked while the application
 * runs.
 */
package io.objectstreams.internal.trigger;
