package io.objectstreams.it.support.server;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Set;

/**
 * One more user for the tests, {@code dana}, whose roles depend on the password she logs in with:
 * {@code staff-pw} makes her staff, {@code customer-pw} a customer. So two connections of one name can hold
 * different roles. The demo's own store does not know her and passes her on to this one.
 */
@ApplicationScoped
public class ItIdentityStore implements IdentityStore {

    @Override
    public CredentialValidationResult validate(Credential credential) {
        if (!(credential instanceof UsernamePasswordCredential login) || !login.getCaller().equals("dana")) {
            return CredentialValidationResult.NOT_VALIDATED_RESULT;
        }
        return switch (login.getPasswordAsString()) {
            case "staff-pw" -> new CredentialValidationResult("dana", Set.of("staff"));
            case "customer-pw" -> new CredentialValidationResult("dana", Set.of("customer"));
            default -> CredentialValidationResult.INVALID_RESULT;
        };
    }
}
