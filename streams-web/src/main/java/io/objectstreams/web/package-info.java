/**
 * The client-facing side, packaged as a web fragment for the application's WAR: the subscription engine shared
 * by every transport ({@code subscription}), the WebSocket transport ({@code socket}), visibility and filters.
 * It reads the outbox and the listener only through {@code io.objectstreams.feed} in {@code streams-ejb}.
 */
package io.objectstreams.web;
