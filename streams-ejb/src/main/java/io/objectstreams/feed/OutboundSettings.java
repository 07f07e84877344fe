package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** The queues of messages waiting to be sent, on every transport (G15); each constant's doc says what it does. */
public record OutboundSettings(long maxConnectionBytes, long maxServerBytes, int senderThreads) {

    public static final Setting<Long> MAX_CONNECTION_BYTES = Setting.bytes("streams.outbound.max-connection-bytes",
            1L << 20, 16L << 10, 1L << 40,
            "Bytes queued for one connection before its queued events are dropped and it must resync;"
                    + " at most max-server-bytes.");

    public static final Setting<Long> MAX_SERVER_BYTES = Setting.bytes("streams.outbound.max-server-bytes", 64L << 20,
            64L << 10, 1L << 40,
            "Bytes queued for all connections together; past it a connection holds only its fair share.");

    public static final Setting<Integer> SENDER_THREADS = Setting.integer("streams.outbound.sender-threads",
            Runtime.getRuntime().availableProcessors(), 1, 256,
            "Threads that send queued messages, so the delivery thread never waits on a send.")
            .deprecatedKey("streams.websocket.sender-threads");

    public static final Setting<Void> OUTBOUND_QUEUE = Setting.removed("streams.websocket.outbound-queue",
            "is no longer read: the outbound queue is bounded in bytes. Remove it and set " + MAX_CONNECTION_BYTES.key()
                    + " (and " + MAX_SERVER_BYTES.key() + ") instead",
            "Removed (a count of events); setting it stops deployment.");

    static OutboundSettings from(ConfigValues values) {
        values.find(OUTBOUND_QUEUE);
        long maxServerBytes = values.get(MAX_SERVER_BYTES);
        return new OutboundSettings(values.get(MAX_CONNECTION_BYTES.atMost(maxServerBytes)), maxServerBytes,
                values.get(SENDER_THREADS));
    }
}
