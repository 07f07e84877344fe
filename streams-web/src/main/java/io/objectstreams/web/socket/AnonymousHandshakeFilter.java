package io.objectstreams.web.socket;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.subscription.ConnectionRegistry;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.visibility.Visibility;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses a WebSocket handshake without an authenticated principal with 401 ({@code authentication_required}),
 * unless some visibility policy admits anonymous readers: such a connection could never be told anything, and
 * would only take one of the server's slots (G12, G15). Runs before the upgrade on both servers; should a
 * container upgrade first, {@link StreamsEndpoint} refuses the session the same way, with the same code.
 */
@WebFilter(urlPatterns = "/streams/ws")
public class AnonymousHandshakeFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    transient Visibility visibility;

    @Inject
    transient ConnectionRegistry engine;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getUserPrincipal() == null && !visibility.admitsAnonymous()) {
            ProtocolError refusal = refusal();
            engine.refused(refusal);
            response.setStatus(refusal.httpStatus());
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            response.getWriter().write(refusal.body());
            return;
        }
        chain.doFilter(request, response);
    }

    static ProtocolError refusal() {
        return new ProtocolError(ErrorCode.AUTHENTICATION_REQUIRED,
                "No model here is readable anonymously; authenticate");
    }
}
