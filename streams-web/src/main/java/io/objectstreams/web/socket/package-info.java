/**
 * The WebSocket transport: the endpoint, the handshake that captures the viewer and checks the origin, and the
 * adapter that turns frames into engine requests and engine messages into frames. Subscription logic belongs to
 * the subscription package.
 */
package io.objectstreams.web.socket;
