package io.objectstreams.web.socket;

import io.objectstreams.Viewer;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.web.subscription.ConnectionRegistry;
import io.objectstreams.web.visibility.Visibility;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.security.Principal;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Checks each WebSocket handshake's origin, captures the viewer at the handshake, the only moment roles can be asked
 * of the container (for every role a visibility policy declared, whether the authenticated caller holds it; see
 * {@link HandshakeViewer}), and makes each connection's endpoint.
 */
public class HandshakeConfigurator extends ServerEndpointConfig.Configurator {

    private static final Logger LOG = Logger.getLogger(HandshakeConfigurator.class.getName());

    /**
     * The beans the endpoint and the handshake use, looked up at the first handshake: {@code CDI.current()} is not
     * free on Payara.
     */
    private volatile Beans beans;

    /** The application's beans a connection needs: client proxies and EJB references, shared by every connection. */
    private record Beans(ConnectionRegistry engine, StreamsFeed feed, WebSocketKeepAlive keepAlive,
                         Visibility visibility) {
        static Beans lookUp() {
            CDI<Object> cdi = CDI.current();
            return new Beans(cdi.select(ConnectionRegistry.class).get(), cdi.select(StreamsFeed.class).get(),
                    cdi.select(WebSocketKeepAlive.class).get(), cdi.select(Visibility.class).get());
        }
    }

    private Beans beans() {
        Beans known = beans;
        if (known == null) {
            beans = known = Beans.lookUp();
        }
        return known;
    }

    /**
     * Makes each connection's endpoint with the beans looked up once. Left to the container, Payara's Tyrus builds
     * a CDI injection target for every connection: a twelfth of the server's CPU in a storm of 15,000 reconnecting
     * clients, and about 1 KB of injection metadata held per connection (docs/benchmarks.md).
     */
    @Override
    public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
        if (endpointClass != StreamsEndpoint.class) {
            return super.getEndpointInstance(endpointClass);
        }
        Beans known = beans();
        return endpointClass.cast(new StreamsEndpoint(known.engine(), known.feed(), known.keepAlive(),
                known.visibility()));
    }

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
        if (beans().feed().settings().allowsOrigin(origin, ownOrigin())) {
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
        // Looked up here, on the request's thread, for every handshake's first: getEndpointInstance may run where
        // the container gives no request context (an anonymous handshake without an Origin comes to it first).
        Beans known = beans();
        Principal principal = request.getUserPrincipal();
        if (principal == null) {
            return;
        }
        Set<String> roles = known.visibility().declaredRoles().stream()
                .filter(request::isUserInRole)
                .collect(Collectors.toSet());
        HandshakeViewer.capture(config, new Viewer(principal.getName(), roles));
    }
}
