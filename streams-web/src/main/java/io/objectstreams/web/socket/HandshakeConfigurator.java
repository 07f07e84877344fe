package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.web.visibility.Visibility;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.security.Principal;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Captures the viewer at the handshake, the only moment roles can be asked of the container: for every role a
 * visibility policy declared, whether the authenticated caller holds it.
 *
 * <p>The endpoint configuration's user properties may be shared between concurrent handshakes on some
 * servers, so the viewer is stored under its principal's name, not under one fixed key.
 */
public class HandshakeConfigurator extends ServerEndpointConfig.Configurator {

    private static final Logger LOG = Logger.getLogger(HandshakeConfigurator.class.getName());
    private static final String KEY = "io.objectstreams.viewer.";

    /**
     * Refuses a browser's handshake from a page of another origin (cross-site WebSocket hijacking would otherwise
     * ride on the user's credentials): allowed are the application's own origin, and those listed in
     * {@code streams.websocket.allowed-origins}. A handshake without an {@code Origin} header does not come from
     * a browser page and is allowed; it still authenticates like any request. The container answers a refused
     * handshake with 403.
     */
    @Override
    public boolean checkOrigin(String origin) {
        if (origin == null || origin.isBlank()) {
            return true;
        }
        if (CDI.current().select(StreamsFeed.class).get().settings().allowsOrigin(origin, ownOrigin())) {
            return true;
        }
        LOG.fine(() -> "Refused a WebSocket handshake from origin " + origin + " (streams.websocket.allowed-origins)");
        return false;
    }

    /** This request's own origin, from the Host header the browser sent; empty if it cannot be told. */
    private static Optional<String> ownOrigin() {
        try {
            HttpServletRequest request = CDI.current().select(HttpServletRequest.class).get();
            return Optional.of(request.getScheme() + "://" + request.getHeader("Host"));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The handshake request is not available to compare origins; refusing", e);
            return Optional.empty();
        }
    }

    @Override
    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
        Principal principal = request.getUserPrincipal();
        if (principal == null) {
            return;
        }
        Set<String> roles = CDI.current().select(Visibility.class).get().declaredRoles().stream()
                .filter(request::isUserInRole)
                .collect(Collectors.toSet());
        config.getUserProperties().put(KEY + principal.getName(), new Viewer(principal.getName(), roles));
    }

    static Viewer viewer(Session session, EndpointConfig config) {
        Principal principal = session.getUserPrincipal();
        if (principal == null) {
            return Viewer.anonymous();
        }
        Object viewer = config.getUserProperties().get(KEY + principal.getName());
        return viewer instanceof Viewer captured ? captured : new Viewer(principal.getName(), Set.of());
    }
}
