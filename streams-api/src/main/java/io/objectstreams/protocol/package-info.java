/**
 * The protocol's words as types: each enum constant carries the exact spelling a client sees on the wire
 * ({@code wireName()}), so server code never compares or searches rendered text. Values only: nothing here
 * renders a message, reads configuration or holds state.
 */
package io.objectstreams.protocol;
