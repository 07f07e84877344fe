package io.objectstreams.examples.helpdesk.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * Who is calling: HTTP Basic for tools (curl, the tests), a signed-in session for the page. A browser cannot put an
 * {@code Authorization} header on a WebSocket handshake or an {@code EventSource}, so the page signs in once
 * ({@code POST login} with a form) and every later request, the streams' included, carries the session cookie.
 */
@ApplicationScoped
public class HelpDeskAuthentication implements HttpAuthenticationMechanism {

    private static final String SESSION_KEY = HelpDeskAuthentication.class.getName() + ".caller";

    /** The signed-in caller, kept in the session. */
    record SignedIn(String name, Set<String> groups) implements Serializable {
    }

    @Inject
    IdentityStoreHandler identities;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            CredentialValidationResult result = basic(authorization.substring(6).trim());
            return result.getStatus() == CredentialValidationResult.Status.VALID
                    ? context.notifyContainerAboutLogin(result) : context.responseUnauthorized();
        }
        if ("POST".equals(request.getMethod()) && "/login".equals(request.getServletPath())) {
            CredentialValidationResult result = identities.validate(new UsernamePasswordCredential(
                    text(request.getParameter("username")), text(request.getParameter("password"))));
            if (result.getStatus() != CredentialValidationResult.Status.VALID) {
                HttpSession earlier = request.getSession(false);
                if (earlier != null) {
                    earlier.removeAttribute(SESSION_KEY); // a failed sign-in signs the earlier user out
                }
                return context.responseUnauthorized();
            }
            if (request.getSession(false) != null) {
                request.changeSessionId(); // a new session id at sign-in: no fixation
            }
            request.getSession(true).setAttribute(SESSION_KEY,
                    new SignedIn(result.getCallerPrincipal().getName(), Set.copyOf(result.getCallerGroups())));
            return context.notifyContainerAboutLogin(result);
        }
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(SESSION_KEY) instanceof SignedIn caller) {
            return context.notifyContainerAboutLogin(caller.name(), caller.groups());
        }
        return context.isProtected() ? context.responseUnauthorized() : context.doNothing();
    }

    private CredentialValidationResult basic(String encoded) {
        try {
            String decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0 ? CredentialValidationResult.INVALID_RESULT : identities.validate(
                    new UsernamePasswordCredential(decoded.substring(0, colon), decoded.substring(colon + 1)));
        } catch (IllegalArgumentException notBase64) {
            return CredentialValidationResult.INVALID_RESULT;
        }
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
