package io.objectstreams.web.subscription;

import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;

/**
 * One protocol message as the engine hands it to a transport: what it is, and its text, so no transport needs to
 * read the text to decide what to do with it.
 *
 * @param type         the message's {@code type}
 * @param cursor       the message's {@code cursor}, or -1 when it has none
 * @param resyncReason a {@code resync_required}'s reason; {@code null} for every other type
 * @param text         the message as JSON, on one line
 */
public record OutboundMessage(MessageType type, long cursor, ResyncReason resyncReason, String text) {
}
