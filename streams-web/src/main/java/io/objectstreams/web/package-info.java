/**
 * The client-facing transports: the WebSocket endpoint, the SSE resource and the browser client. They
 * speak the protocol and hold sessions; subscription decisions (visibility, membership, replay) belong to
 * {@code streams-ejb}. Filled in by the WebSocket and SSE issues; for now this module only carries the
 * web fragment that marks it for inclusion in the application's WAR.
 */
package io.objectstreams.web;
