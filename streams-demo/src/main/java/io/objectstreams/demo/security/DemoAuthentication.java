package io.objectstreams.demo.security;

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
 * How the demo authenticates, for every request (REST, the WebSocket handshake, SSE):
 *
 * <ul>
 *   <li>HTTP Basic, for clients that are not browsers (curl, the tests, the README's tour);</li>
 *   <li>a signed-in session, for the live page: it posts a name and a password to {@code login} once, and the
 *   session cookie then authenticates its REST calls, its WebSocket handshake and its SSE requests. A browser
 *   cannot put an {@code Authorization} header on a WebSocket or an {@code EventSource}, and credentials or
 *   tokens never go in a URL.</li>
 * </ul>
 *
 * Jakarta Security 3 allows one mechanism per application, so this one does both; both check the same identity
 * stores.
 */
@ApplicationScoped
public class DemoAuthentication implements HttpAuthenticationMechanism {

    static final String REALM = "object-streams-demo";

    /** The signed-in caller, kept in the session. */
    record SignedIn(String name, Set<String> groups) implements Serializable {
    }

    static final String SESSION_KEY = DemoAuthentication.class.getName() + ".caller";

    @Inject
    IdentityStoreHandler identities;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            CredentialValidationResult result = validate(authorization.substring(6).trim());
            if (result.getStatus() == CredentialValidationResult.Status.VALID) {
                return context.notifyContainerAboutLogin(result);
            }
            return challenge(request, response, context);
        }
        if (isSignIn(request)) {
            CredentialValidationResult result = identities.validate(new UsernamePasswordCredential(
                    nonNull(request.getParameter("username")), nonNull(request.getParameter("password"))));
            if (result.getStatus() != CredentialValidationResult.Status.VALID) {
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
        return context.isProtected() ? challenge(request, response, context) : context.doNothing();
    }

    /** The page's sign-in: {@code POST login} with a form, before any session exists for it. */
    private static boolean isSignIn(HttpServletRequest request) {
        return "POST".equals(request.getMethod())
                && request.getRequestURI().equals(request.getContextPath() + "/login");
    }

    /** A Basic challenge for tools; the live page marks its calls so a browser does not pop up a dialog. */
    private static AuthenticationStatus challenge(HttpServletRequest request, HttpServletResponse response,
                                                  HttpMessageContext context) {
        if (request.getHeader("X-Streams-Page") == null) {
            response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\"");
        }
        return context.responseUnauthorized();
    }

    private CredentialValidationResult validate(String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        return identities.validate(new UsernamePasswordCredential(decoded.substring(0, colon),
                decoded.substring(colon + 1)));
    }

    private static String nonNull(String value) {
        return value == null ? "" : value;
    }
}
