package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WebSocket transport at {@code <context root>/streams/ws}, speaking the JSON protocol (docs/protocol.md).
 * The subscriber is the principal the container authenticated on the handshake.
 */
@ServerEndpoint(value = "/streams/ws", configurator = HandshakeConfigurator.class)
public class StreamsEndpoint {

    private static final Logger LOG = Logger.getLogger(StreamsEndpoint.class.getName());

    @Inject
    Subscriptions subscriptions;

    @OnOpen
    public void open(Session session, EndpointConfig config) {
        Viewer viewer = HandshakeConfigurator.viewer(session, config);
        // The container closes the session on a frame above its buffer (1009); leave room above the protocol's
        // own limit so an oversized frame gets a named error instead and the session stays usable (G12).
        session.setMaxTextMessageBufferSize(Subscriptions.CONTAINER_FRAME_BYTES);
        subscriptions.open(session, viewer);
    }

    @OnMessage(maxMessageSize = Subscriptions.CONTAINER_FRAME_BYTES)
    public void message(Session session, String text) {
        subscriptions.handle(session, text);
    }

    @OnClose
    public void close(Session session, CloseReason reason) {
        subscriptions.close(session);
    }

    @OnError
    public void error(Session session, Throwable failure) {
        LOG.log(Level.FINE, "WebSocket session " + session.getId() + " failed", failure);
        subscriptions.close(session);
    }
}
