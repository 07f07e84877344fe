package io.objectstreams.demo.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The demo's three users, checked by {@link DemoAuthentication} (HTTP Basic, or the live page's sign-in): {@code alice}
 * and {@code bob} are customers, {@code carol} is staff and may use the Object Streams admin endpoints
 * ({@code streams-admin}). Each password is the user name followed by {@code -pw}. A real application brings its own
 * identity store; Object Streams only reads the resulting caller principal.
 *
 * <p>For load tests, {@code demo.load-customers} = N (default 0, off) also admits the customers {@code u1} ...
 * {@code uN}, each with the password {@value #LOAD_PASSWORD}: thousands of distinct viewers, as a real store has.
 */
@ApplicationScoped
public class DemoIdentityStore implements IdentityStore {

    /** The password of every generated load customer. */
    public static final String LOAD_PASSWORD = "load-pw";

    @Inject
    @ConfigProperty(name = "demo.load-customers", defaultValue = "0")
    int loadCustomers;

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
        User user = USERS.containsKey(login.getCaller()) ? USERS.get(login.getCaller())
                : loadCustomer(login.getCaller());
        if (user == null || !login.getPasswordAsString().equals(user.password())) {
            return CredentialValidationResult.INVALID_RESULT;
        }
        return new CredentialValidationResult(login.getCaller(), user.groups());
    }

    /** {@code u1} ... {@code uN} when the load population is on; otherwise, and for any other name, nobody. */
    private User loadCustomer(String name) {
        if (loadCustomers <= 0 || name == null || !name.matches("u[1-9][0-9]{0,8}")) {
            return null;
        }
        long number = Long.parseLong(name.substring(1));
        return number <= loadCustomers ? new User(LOAD_PASSWORD, Set.of("customer")) : null;
    }
}
