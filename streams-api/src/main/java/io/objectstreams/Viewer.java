package io.objectstreams;

import java.util.Set;

/**
 * Who is subscribing, as visibility policies see them: the authenticated caller's name (or none), and which of
 * the roles the policies declared ({@link VisibilityPolicy#roles()}) the caller held when the connection was
 * authenticated.
 *
 * @param name  the caller principal's name, or {@code null} for an anonymous connection
 * @param roles the declared roles the caller holds
 */
public record Viewer(String name, Set<String> roles) {

    private static final Viewer ANONYMOUS = new Viewer(null, Set.of());

    public Viewer {
        roles = Set.copyOf(roles);
    }

    public static Viewer anonymous() {
        return ANONYMOUS;
    }

    public boolean isAnonymous() {
        return name == null;
    }

    public boolean hasRole(String role) {
        return roles.contains(role);
    }
}
