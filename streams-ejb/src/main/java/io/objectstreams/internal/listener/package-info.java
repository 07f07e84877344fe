/**
 * The listener: one dedicated PostgreSQL session per instance that LISTENs for wakeups, holds the assigner
 * role when it can (advisory lock), assigns cursors to committed rows, and delivers each assigned row once,
 * in cursor order, to this instance's transports as CDI events; and the report its health checks read. Nothing here
 * decides what a subscriber may see.
 */
package io.objectstreams.internal.listener;
