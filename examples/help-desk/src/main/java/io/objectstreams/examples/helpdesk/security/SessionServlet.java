package io.objectstreams.examples.helpdesk.security;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The page's sign-in and sign-out. {@link HelpDeskAuthentication} has already checked the form when {@code POST login}
 * gets here; this only answers who is signed in. {@code POST logout} ends the session.
 */
@WebServlet(urlPatterns = {"/login", "/logout"})
public class SessionServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getServletPath().equals("/logout")) {
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            response.setStatus(HttpServletResponse.SC_NO_CONTENT);
            return;
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String name = request.getUserPrincipal() == null ? "" : request.getUserPrincipal().getName();
        response.getWriter().write("{\"user\":\"" + name.replace("\"", "") + "\"}");
    }
}
