package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.web.filter.Filter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The application's {@link VisibilityPolicy} beans by model label, and the queries that decide what a viewer
 * may read now: for a batch of subjects, per (model, filter) for all its viewers at once or for one viewer
 * ({@link ScopeDecider}); and the bounded membership snapshot of a filter or model subscription (G8, G9).
 *
 * <p>It lives in the web fragment, not in {@code streams-ejb}: in an EAR the policies are beans of the
 * application's WAR, which an EJB module's bean archive cannot see.
 */
@ApplicationScoped
public class Visibility {

    @Inject
    PolicyBeans policyBeans;

    @Inject
    StreamsFeed feed;

    private volatile Set<String> declaredRoles;
    private final PolicyLookups lookups = new PolicyLookups();
    private final ScopeDecider decider = new ScopeDecider(lookups);

    /**
     * The persistence units the policies read through, each once: those whose capture of the {@code @Streamed}
     * entities the deployment checks (G1).
     */
    public Set<EntityManagerFactory> persistenceUnits() {
        Set<EntityManagerFactory> units = Collections.newSetFromMap(new IdentityHashMap<>());
        for (VisibilityPolicy<?> policy : policies().values()) {
            units.add(factory(policy));
        }
        return units;
    }

    /** The policy of a model; empty for a model nobody may see (no policy registered). */
    public Optional<VisibilityPolicy<?>> policy(String model) {
        return Optional.ofNullable(policies().get(model));
    }

    /**
     * Whether some policy lets anonymous viewers read anything: otherwise a connection without a principal could
     * only ever be told "nothing", and is refused with 401 instead of taking a slot.
     */
    public boolean admitsAnonymous() {
        return policies().values().stream().anyMatch(VisibilityPolicy::admitsAnonymous);
    }

    /** Every role some policy consults, captured when a connection is authenticated; asked of the policies once. */
    public Set<String> declaredRoles() {
        Set<String> roles = declaredRoles;
        if (roles == null) {
            Set<String> all = new HashSet<>();
            policies().values().forEach(p -> all.addAll(p.roles()));
            declaredRoles = roles = Set.copyOf(all);
        }
        return roles;
    }

    /**
     * The subset of {@code pks} that exist, that {@code viewer} may read under {@code policy} (asked now, through its
     * {@code visibleTo}) and that match {@code filter}, in one query: the per-viewer answer every other path must give.
     */
    public Set<String> matching(VisibilityPolicy<?> policy, Viewer viewer, Filter filter, Collection<String> pks) {
        return pks.isEmpty() ? Set.of() : decider.one(policy,
                new Scope(viewer, StreamsFeed.modelLabel(policy.entity()), filter), filter, pks, Integer.MAX_VALUE);
    }

    /** Under a keyed policy, the keys of those of {@code pks} that exist, in one query for any number of viewers. */
    public Optional<SubjectKeys> subjectKeys(String model, Collection<String> pks) {
        if (!(policy(model).orElse(null) instanceof KeyedVisibilityPolicy<?> keyed)) {
            return Optional.empty();
        }
        EntityManager em = factory(keyed).createEntityManager();
        try {
            return Optional.of(new SubjectKeys(keyed, KeyRows.read(em, keyed, Filter.NONE, pks)));
        } finally {
            em.close();
        }
    }

    /**
     * Under a keyed policy, the rows of keys of those of {@code pks} that exist and match {@code filter}, in one query
     * for any number of viewers: the fan-out finds by them the keyed scopes that may read each
     * ({@link VisibilityKeys#admitsAny}). Empty for a model whose policy is not keyed. Throws when the query fails.
     */
    public Map<String, List<List<String>>> keyRows(String model, Filter filter, Collection<String> pks) {
        if (pks.isEmpty() || !(policy(model).orElse(null) instanceof KeyedVisibilityPolicy<?> keyed)) {
            return Map.of();
        }
        EntityManager em = factory(keyed).createEntityManager();
        try {
            return KeyRows.read(em, keyed, filter, pks);
        } finally {
            em.close();
        }
    }

    /**
     * Under a keyed policy, the keys of every row of {@code model} that matches {@code filter}, in one query, when
     * there are at most {@code maxRows} rows of keys (a subject with none counts as one); otherwise, or under another
     * policy, empty.
     */
    public Optional<ModelKeys> modelKeys(String model, Filter filter, int maxRows) {
        return policy(model).flatMap(policy -> modelKeys(policy, filter, maxRows));
    }

    /** As {@link #modelKeys(String, Filter, int)}, under {@code policy} whatever its model: one policy's test. */
    public Optional<ModelKeys> modelKeys(VisibilityPolicy<?> policy, Filter filter, int maxRows) {
        if (!(policy instanceof KeyedVisibilityPolicy<?> keyed)) {
            return Optional.empty();
        }
        EntityManager em = factory(keyed).createEntityManager();
        try {
            return KeyRows.readAll(em, keyed, filter, maxRows).map(ModelKeys::new);
        } finally {
            em.close();
        }
    }

    /**
     * For each scope, the subset of its pks that exist, that its viewer may read and that match its filter: the
     * fan-out's question for a batch. Scopes are decided together per (model, filter), with a number of queries that
     * does not grow with the number of viewers ({@link ScopeQueries}). A (model, filter) whose queries fail leaves
     * its scopes out of the answer, and the failure is {@code failed}'s to report: they cannot be decided now.
     */
    public Map<Scope, Set<String>> matching(Map<Scope, Set<String>> pksByScope,
                                            BiConsumer<String, RuntimeException> failed) {
        Map<String, Map<Scope, Set<String>>> byModel = new HashMap<>();
        pksByScope.forEach((scope, pks) -> byModel.computeIfAbsent(scope.model(), k -> new HashMap<>())
                .put(scope, pks));
        Map<Scope, Set<String>> decided = new HashMap<>();
        byModel.forEach((model, scopes) -> {
            Optional<VisibilityPolicy<?>> policy = policy(model);
            if (policy.isEmpty()) {
                scopes.keySet().forEach(scope -> decided.put(scope, Set.of()));
            } else {
                decided.putAll(matching(policy.get(), scopes, failed));
            }
        });
        return decided;
    }

    /** As {@link #matching(Map, BiConsumer)}, under {@code policy} whatever the scopes' model: one policy's test. */
    public Map<Scope, Set<String>> matching(VisibilityPolicy<?> policy, Map<Scope, Set<String>> pksByScope,
                                            BiConsumer<String, RuntimeException> failed) {
        return decider.together(policy, pksByScope, feed.settings().subscriptions().viewersPerQuery(), failed);
    }

    /**
     * The scope of a subscription starting now: under a keyed policy it holds the keys the viewer holds now, asked
     * once, for the subscription's life.
     */
    public Scope scope(Viewer viewer, String model, Filter filter) {
        return policy(model).map(policy -> scope(policy, viewer, filter))
                .orElseGet(() -> new Scope(viewer, model, filter));
    }

    /** As {@link #scope(Viewer, String, Filter)}, under {@code policy} whatever its model: one policy's test. */
    public Scope scope(VisibilityPolicy<?> policy, Viewer viewer, Filter filter) {
        String model = StreamsFeed.modelLabel(policy.entity());
        if (policy instanceof KeyedVisibilityPolicy<?> keyed && (!viewer.isAnonymous() || keyed.admitsAnonymous())) {
            return new Scope(viewer, model, filter, ScopeQueries.keysOf(keyed, viewer));
        }
        return new Scope(viewer, model, filter);
    }

    /**
     * The primary keys of the scope's model that its viewer may read and that match its filter: at most
     * {@code max + 1}, so a caller learns that the set is too large without materializing it. Under a keyed policy,
     * read with the keys the scope started with.
     */
    public Set<String> members(Scope scope, int max) {
        Optional<VisibilityPolicy<?>> policy = policy(scope.model());
        if (policy.isEmpty()) {
            return Set.of();
        }
        return decider.one(policy.get(), scope, scope.filter(), null, max + 1);
    }

    /**
     * Which of {@code pks} exist and the scope's viewer may read, whatever the scope's filter, in one query: under a
     * keyed policy, with the keys the scope started with.
     */
    public Set<String> visible(Scope scope, Collection<String> pks) {
        Optional<VisibilityPolicy<?>> policy = policy(scope.model());
        return policy.isEmpty() || pks.isEmpty() ? Set.of()
                : decider.one(policy.get(), scope, Filter.NONE, pks, Integer.MAX_VALUE);
    }

    private EntityManagerFactory factory(VisibilityPolicy<?> policy) {
        return lookups.factory(policy);
    }

    /**
     * A pk of {@code model} as its events spell it ({@code "7"} for {@code "007"} of a numeric id, a UUID in lower
     * case); {@code null} when it cannot be an id of the model, which then names nothing (unchanged: no policy).
     */
    public String canonicalPk(String model, String pk) {
        Optional<VisibilityPolicy<?>> policy = policy(model);
        if (policy.isEmpty()) {
            return pk;
        }
        return lookups.canonicalPk(model, policy.get(), pk); // asked of the policy once per model
    }

    private Map<String, VisibilityPolicy<?>> policies() {
        return policyBeans.byModel();
    }
}
