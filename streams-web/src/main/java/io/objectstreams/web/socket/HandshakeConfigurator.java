package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import io.objectstreams.web.visibility.Visibility;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.Session;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.security.Principal;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Captures the viewer at the handshake, the only moment roles can be asked of the container: for every role a
 * visibility policy declared, whether the authenticated caller holds it.
 *
 * <p>The endpoint configuration's user properties may be shared between concurrent handshakes on some
 * servers, so the viewer is stored under its principal's name, not under one fixed key.
 */
public class HandshakeConfigurator extends ServerEndpointConfig.Configurator {

    private static final String KEY = "io.objectstreams.viewer.";

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
