package io.objectstreams.demo.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Set;

/**
 * The demo's three users, checked by {@link DemoAuthentication} (HTTP Basic, or the live page's sign-in): {@code alice} and {@code bob} are customers,
 * {@code carol} is staff and may use the Object Streams admin endpoints ({@code streams-admin}). Each password is the user name followed by {@code -pw}. A real application
 * brings its own identity store; Object Streams only reads the resulting caller principal.
 */
@ApplicationScoped
public class DemoIdentityStore implements IdentityStore {

    private record User(String password, Set<String> groups) {
    }

    private static final Map<String, User> USERS = Map.of(
            "alice", new User("alice-pw", Set.of("customer")),
            "bob", new User("bob-pw", Set.of("customer")),
            "carol", new User("carol-pw", Set.of("staff", "streams-admin")));

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (!(credential instanceof UsernamePasswordCredential login)) {
            return CredentialValidationResult.NOT_VALIDATED_RESULT;
        }
        User user = USERS.get(login.getCaller());
        if (user == null || !login.getPasswordAsString().equals(user.password())) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        return new CredentialValidationResult(login.getCaller(), user.groups());
    }
}
