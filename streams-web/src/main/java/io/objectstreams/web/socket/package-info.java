/**
 * The WebSocket transport: the endpoint, the handshake that captures the viewer, per-connection sessions and
 * the fan-out of each committed batch to them. Visibility decisions are delegated to the visibility package;
 * nothing here writes to the database.
 */
package io.objectstreams.web.socket;
