package io.objectstreams.it.support;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Builds the HTTP Basic {@code Authorization} header value with which tests and benchmarks sign in. */
public final class Auth {

    private Auth() {
    }

    /**
     * The header value for {@code user} with its password: a demo user's is the name followed by {@code -pw}
     * ({@code alice-pw}), a load customer's ({@code u1}, ...) is {@code load-pw}.
     */
    public static String basic(String user) {
        return basic(user, user.matches("u[0-9]+") ? "load-pw" : user + "-pw");
    }

    /** The header value for {@code user} signing in with {@code password}. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The header value for {@code login}: {@code user:password} as given (the part before the first colon is the
     * user), or a user alone, with its password as {@link #basic(String)} gives it.
     */
    public static String basicLogin(String login) {
        int colon = login.indexOf(':');
        return colon < 0 ? basic(login) : basic(login.substring(0, colon), login.substring(colon + 1));
    }
}
