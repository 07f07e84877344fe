package io.objectstreams.examples.helpdesk.security;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The help desk's users, fixed for the example: two agents of Acme, one of Globex, and an administrator of the
 * service who belongs to no tenant. A real application reads its directory; what Object Streams needs of it is the
 * principal (the viewer's name) and the roles a policy asks about.
 */
@ApplicationScoped
public class HelpDeskUsers implements IdentityStore {

    public static final UUID ACME = UUID.fromString("a0000000-0000-4000-8000-000000000001");
    public static final UUID GLOBEX = UUID.fromString("b0000000-0000-4000-8000-000000000002");
    public static final String ADMIN = "admin";
    public static final String AGENT = "agent";

    private record User(String password, UUID tenant, Set<String> groups) {
    }

    private static final Map<String, User> USERS = Map.of(
            "alice", new User("alice-pw", ACME, Set.of(AGENT)),
            "carol", new User("carol-pw", ACME, Set.of(AGENT)),
            "bob", new User("bob-pw", GLOBEX, Set.of(AGENT)),
            "root", new User("root-pw", null, Set.of(ADMIN)));

    /** The tenant whose tickets {@code user} may see; empty for an administrator or an unknown name. */
    public static Optional<UUID> tenantOf(String user) {
        User known = USERS.get(user);
        return known == null ? Optional.empty() : Optional.ofNullable(known.tenant());
    }

    /** The keys of a viewer under the tenant policies: every key for an administrator, else their tenant's. */
    public static VisibilityKeys tenantKeys(Viewer viewer) {
        if (viewer.hasRole(ADMIN)) {
            return VisibilityKeys.all();
        }
        return tenantOf(viewer.name()).map(tenant -> VisibilityKeys.of(Set.of(tenant))).orElse(VisibilityKeys.none());
    }

    @Override
    public CredentialValidationResult validate(jakarta.security.enterprise.credential.Credential credential) {
        if (credential instanceof UsernamePasswordCredential login) {
            User user = USERS.get(login.getCaller());
            if (user != null && login.compareTo(login.getCaller(), user.password())) {
                return new CredentialValidationResult(login.getCaller(), user.groups());
            }
        }
        return CredentialValidationResult.INVALID_RESULT;
    }
}
