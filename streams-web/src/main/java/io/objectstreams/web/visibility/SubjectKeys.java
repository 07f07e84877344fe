package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityKeys;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys of some subjects of a model under a {@link KeyedVisibilityPolicy}, read in one query
 * ({@link Visibility#subjectKeys}), against which any number of scopes are then matched in memory: what each
 * viewer may read among them, as the fan-out decides it for a batch.
 */
public final class SubjectKeys {

    private final KeyedVisibilityPolicy<?> policy;
    private final Map<String, List<List<String>>> keysOf;

    SubjectKeys(KeyedVisibilityPolicy<?> policy, Map<String, List<List<String>>> keysOf) {
        this.policy = policy;
        this.keysOf = keysOf;
    }

    /** Those of {@code pks} (all of them read here) that the scope's viewer may read, by the keys its scope holds. */
    public Set<String> admitted(Scope scope, Collection<String> pks) {
        // Anonymous viewers are denied here unless the policy admits them (G8), as everywhere else.
        if (scope.viewer().isAnonymous() && !policy.admitsAnonymous()) {
            return Set.of();
        }
        VisibilityKeys keys = ScopeQueries.keys(policy, scope);
        Set<String> admitted = new HashSet<>();
        for (String pk : pks) {
            if (keys.admitsAny(keysOf.get(pk))) {
                admitted.add(pk);
            }
        }
        return admitted;
    }
}
