package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.web.subscription.Messages;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.visibility.Visibility;
import io.objectstreams.web.subscription.ConnectionRegistry;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WebSocket transport at {@code <context root>/streams/ws}, speaking the JSON protocol (docs/protocol.md).
 * The subscriber is the principal the container authenticated on the handshake. There is one instance per
 * connection, made by {@link HandshakeConfigurator#getEndpointInstance} with the beans it looked up once; the
 * injection points remain for a container that makes the instance itself.
 */
@ServerEndpoint(value = "/streams/ws", configurator = HandshakeConfigurator.class)
public class StreamsEndpoint {

    private static final Logger LOG = Logger.getLogger(StreamsEndpoint.class.getName());

    /** What the container accepts per frame: the largest {@code streams.websocket.max-frame-bytes} allowed. */
    static final int CONTAINER_FRAME_BYTES = 1_048_576 * 4;

    @Inject
    ConnectionRegistry engine;

    @Inject
    StreamsFeed feed;

    @Inject
    WebSocketKeepAlive keepAlive;

    @Inject
    Visibility visibility;

    private WebSocketSubscriber subscriber;

    public StreamsEndpoint() {
    }

    StreamsEndpoint(ConnectionRegistry engine, StreamsFeed feed, WebSocketKeepAlive keepAlive, Visibility visibility) {
        this.engine = engine;
        this.feed = feed;
        this.keepAlive = keepAlive;
        this.visibility = visibility;
    }

    @OnOpen
    public void open(Session session) {
        Viewer viewer = HandshakeViewer.viewer(session);
        if (viewer.isAnonymous() && !visibility.admitsAnonymous()) {
            // AnonymousHandshakeFilter refuses this handshake with 401 first; this holds should a container upgrade
            // before running filters.
            refuse(session, AnonymousHandshakeFilter.refusal(), CloseReason.CloseCodes.VIOLATED_POLICY);
            return;
        }
        TransportSettings settings = feed.settings();
        // The container closes the session on a frame above its buffer (1009); leave room above the protocol's
        // own limit so an oversized frame gets a named error instead and the session stays usable (G12).
        session.setMaxTextMessageBufferSize(CONTAINER_FRAME_BYTES);
        // Never the container's idle timeout: pings would reset it, and its timer is costly on Payara. The keep-alive
        // keeps streams.websocket.max-idle instead, and on Payara the timer's task, which then never acts, is skipped.
        // Installed first, so that setting no timeout does not schedule Tyrus's idle task already (on Payara that
        // scheduling was a seventh of a reconnect storm's CPU: its managed executor captures a context per task).
        if (settings.skipContainerIdleTimer()) {
            TyrusIdleTimer.install(session);
        }
        session.setMaxIdleTimeout(0);
        WebSocketSubscriber opened = new WebSocketSubscriber(session, settings.maxFrameBytes());
        try {
            opened.attach(engine.open(opened, viewer), engine.requestQueue(settings.maxFrameBytes()));
            subscriber = opened;
            keepAlive.watch(opened);
        } catch (ProtocolError refused) {
            refuse(session, refused, CloseReason.CloseCodes.TRY_AGAIN_LATER);
        }
    }

    /** A connection refused at its start: the client reads why, then the socket closes with {@code code}. */
    private void refuse(Session session, ProtocolError refused, CloseReason.CloseCode code) {
        engine.refused(refused);
        try {
            session.getBasicRemote().sendText(Messages.error(refused).body().toString());
            session.close(new CloseReason(code, refused.code().wireName()));
        } catch (IOException | IllegalStateException e) {
            LOG.log(Level.FINE, "Refusing WebSocket session " + session.getId() + " failed", e);
        }
    }

    @OnMessage(maxMessageSize = CONTAINER_FRAME_BYTES)
    public void message(String text) {
        if (subscriber != null) {
            subscriber.handle(text);
        }
    }

    /** The answer to the keep-alive's ping ({@link WebSocketKeepAlive}). */
    @OnMessage
    public void pong(PongMessage pong) {
        if (subscriber != null) {
            subscriber.heard();
        }
    }

    @OnClose
    public void close(CloseReason reason) {
        if (subscriber != null) {
            subscriber.ended();
            keepAlive.forget(subscriber);
            engine.close(subscriber, closeCause(reason.getCloseCode().getCode()));
        }
    }

    /**
     * How a close is counted: the code when the protocol defines it (1000-1015), else {@code close_other}, since
     * the codes 3000-4999 are the client's to choose, and each cause is a series of operators' metrics.
     */
    static String closeCause(int code) {
        return code >= 1000 && code <= 1015 ? "close_" + code : "close_other";
    }

    @OnError
    public void error(Session session, Throwable failure) {
        LOG.log(Level.FINE, "WebSocket session " + session.getId() + " failed", failure);
        if (subscriber != null) {
            subscriber.ended();
            keepAlive.forget(subscriber);
            engine.close(subscriber, "error");
        }
    }
}
