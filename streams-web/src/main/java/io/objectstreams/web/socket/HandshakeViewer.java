package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;
import java.security.Principal;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Carries the viewer captured at a WebSocket handshake to its session, in the user properties.
 *
 * <p>Jakarta WebSocket 2.1 makes those a per-connection copy during the handshake, and the session starts with that
 * copy, so the viewer is stored under one fixed key and read back from the session, never from the endpoint
 * configuration: nothing is shared between connections, and nothing grows per user.
 */
final class HandshakeViewer {

    private static final Logger LOG = Logger.getLogger(HandshakeViewer.class.getName());
    private static final String KEY = "io.objectstreams.viewer";

    private HandshakeViewer() {
    }

    /** Keeps {@code viewer} in this handshake's copy of the user properties. */
    static void capture(ServerEndpointConfig handshake, Viewer viewer) {
        handshake.getUserProperties().put(KEY, viewer);
    }

    /**
     * The viewer captured at this session's handshake. One that names another principal than the session's
     * would mean the server shares handshake properties between connections; it is never used, and the
     * connection gets no roles rather than someone else's.
     */
    static Viewer viewer(Session session) {
        Principal principal = session.getUserPrincipal();
        if (principal == null) {
            return Viewer.anonymous();
        }
        Object captured = session.getUserProperties().remove(KEY);
        if (captured instanceof Viewer viewer && viewer.name().equals(principal.getName())) {
            return viewer;
        }
        LOG.warning(() -> "No viewer was captured at the handshake of WebSocket session " + session.getId()
                + "; it gets no roles");
        return new Viewer(principal.getName(), Set.of());
    }
}
