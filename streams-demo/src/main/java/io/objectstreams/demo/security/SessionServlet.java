package io.objectstreams.demo.security;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;

/**
 * The live page's session: {@code POST login} (form fields {@code username}, {@code password}; checked by
 * {@link DemoAuthentication} before this runs), {@code POST logout}, and {@code GET me}: who is signed in.
 */
@WebServlet(urlPatterns = {"/login", "/logout", "/me"})
public class SessionServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!request.getServletPath().equals("/me")) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        me(request, response);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        switch (request.getServletPath()) {
            case "/login" -> me(request, response);
            case "/logout" -> {
                HttpSession session = request.getSession(false);
                if (session != null) {
                    session.invalidate();
                }
                request.logout();
                response.setStatus(HttpServletResponse.SC_NO_CONTENT);
            }
            default -> response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        }
    }

    private static void me(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Principal caller = request.getUserPrincipal();
        JsonObjectBuilder body = Json.createObjectBuilder();
        if (caller == null) {
            body.addNull("user");
        } else {
            body.add("user", caller.getName()).add("staff", request.isUserInRole("staff"));
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(body.build().toString());
    }
}
