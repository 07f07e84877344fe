package io.objectstreams.web.subscription;

import java.util.function.Consumer;

/**
 * One client connection as a transport provides it to the engine: somewhere to send protocol messages, one at a
 * time, and a way to end the connection. The WebSocket endpoint implements it; the engine owns everything else
 * (subscriptions, membership, replay, the outbound queue and its budget), so every transport behaves alike.
 */
public interface Subscriber {

    /** Names the connection in logs; unique among this instance's connections. */
    String id();

    /** The transport, for health data: {@code websocket} or {@code sse}. */
    String transport();

    /**
     * Sends one protocol message without waiting for the client, and calls {@code done} once it is written
     * ({@code null}) or has failed. The engine never sends the next message before {@code done} was called.
     */
    void send(OutboundMessage message, Consumer<Throwable> done);

    /**
     * Ends the connection because the server cannot serve it as the protocol promises: the client broke a limit
     * ({@code clientFault}), or the server could not tell it about a gap any other way. A client that reconnects
     * with its last cursor then gets what it missed, or a {@code resync_required}.
     */
    void close(String reason, boolean clientFault);
}
