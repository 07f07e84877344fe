package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.web.filter.Filter;
import jakarta.persistence.EntityManager;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides which subjects a scope's viewer may read under one policy: one scope with a query of its own, or the
 * scopes of a batch together per filter ({@link ScopeQueries}), falling back to a query per scope when deciding
 * them together fails, so that one viewer's failing keys or predicate leave only that viewer undecided.
 */
final class ScopeDecider {

    private static final Logger LOG = Logger.getLogger(ScopeDecider.class.getName());

    private final PolicyLookups lookups;

    ScopeDecider(PolicyLookups lookups) {
        this.lookups = lookups;
    }

    /**
     * For each scope, the subset of its pks that exist, that its viewer may read and that match its filter, with a
     * number of queries per filter that does not grow with the number of viewers ({@code viewersPerQuery} at most
     * in one). A filter whose queries fail leaves its scopes out of the answer, and {@code failed} reports it.
     */
    Map<Scope, Set<String>> together(VisibilityPolicy<?> policy, Map<Scope, Set<String>> pksByScope,
                                     int viewersPerQuery, BiConsumer<String, RuntimeException> failed) {
        Map<Filter, Map<Scope, Set<String>>> byFilter = new HashMap<>();
        pksByScope.forEach((scope, pks) -> byFilter.computeIfAbsent(scope.filter(), k -> new HashMap<>())
                .put(scope, pks));
        Map<Scope, Set<String>> decided = new HashMap<>();
        byFilter.forEach((filter, scopes) -> {
            EntityManager em = lookups.factory(policy).createEntityManager();
            try {
                decided.putAll(ScopeQueries.decide(em, policy, filter, scopes, viewersPerQuery));
            } catch (ScopeQueries.MultiplexUnsupported e) {
                decided.putAll(oneByOne(policy, scopes, failed));
            } catch (RuntimeException e) {
                if (scopes.size() == 1) {
                    // Asking one viewer alone again would ask the same question: it cannot be decided now.
                    failed.accept(StreamsFeed.modelLabel(policy.entity()), e);
                } else {
                    LOG.log(Level.WARNING, "Visibility of " + StreamsFeed.modelLabel(policy.entity()) + " for "
                            + scopes.size() + " viewers at once failed; each is asked alone", e);
                    decided.putAll(oneByOne(policy, scopes, failed));
                }
            } finally {
                em.close();
            }
        });
        return decided;
    }

    /**
     * Each scope with a query of its own, when deciding them together failed: only the scopes whose own query
     * fails are left out (one viewer's failing keys or predicate must not leave every viewer undecided).
     */
    private Map<Scope, Set<String>> oneByOne(VisibilityPolicy<?> policy, Map<Scope, Set<String>> pksByScope,
                                             BiConsumer<String, RuntimeException> failed) {
        Map<Scope, Set<String>> decided = new HashMap<>();
        RuntimeException first = null;
        for (Map.Entry<Scope, Set<String>> entry : pksByScope.entrySet()) {
            try {
                Scope scope = entry.getKey();
                // A keyed scope keeps the keys its subscription started with; any other is one plain query.
                decided.put(scope, policy instanceof KeyedVisibilityPolicy<?>
                        ? ScopeQueries.decide(lookups.factory(policy), policy, scope, entry.getValue())
                        : entry.getValue().isEmpty() ? Set.of()
                        : one(policy, scope, scope.filter(), entry.getValue(), Integer.MAX_VALUE));
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            failed.accept(StreamsFeed.modelLabel(policy.entity()), first);
        }
        return decided;
    }

    /**
     * Which of {@code pks} (all, when {@code null}) exist, match {@code filter} and the scope's viewer may read, in
     * one query reading at most {@code limit} rows.
     */
    <E> Set<String> one(VisibilityPolicy<E> policy, Scope scope, Filter filter, Collection<String> pks, int limit) {
        if (scope.viewer().isAnonymous() && !policy.admitsAnonymous()) {
            // Denied here, not in each policy (G8): the policy is never asked about an anonymous viewer.
            return Set.of();
        }
        // An entity manager of our own per query: the policy's container-managed one, used outside a transaction
        // from two threads at once (listener and WebSocket), had Payara close it under a running query.
        EntityManager em = lookups.factory(policy).createEntityManager();
        try {
            return ScopeQueries.read(em, policy, scope, filter, pks, limit);
        } finally {
            em.close();
        }
    }
}
