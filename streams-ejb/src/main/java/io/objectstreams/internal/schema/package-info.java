/**
 * The database schema Object Streams owns (outbox, cursor state) and the deployment-time steps that
 * prepare it. Migrations are append-only: never edit a shipped one, add the next version.
 */
package io.objectstreams.internal.schema;
