package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.web.filter.Filter;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.metamodel.Attribute;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The attributes of a subject whose values decide whether it matches a {@link Scope}: those its filter constrains,
 * and under a {@link KeyedVisibilityPolicy} the attributes its key expressions start from ({@code owner} for
 * {@code root.get("owner")}, {@code folder} for {@code root.get("folder").get("tenant")}). A row of a batch after which
 * none of them changed matched then exactly as its subject matches after the batch (G17, BatchFanOut). A change to
 * one of the subject's parts counts only for keys read through a join ({@link #PARTS}). Under a policy that is not
 * keyed, which attributes its predicate reads cannot be told.
 */
public class DecidingAttributes {

    /**
     * Among the attributes, a change to a part of the subject (a row of another facet): it decides a scope whose keys
     * are read through a join of the policy's, where the part may be what the join finds.
     */
    public static final String PARTS = "\0parts";

    private final Visibility visibility;
    /**
     * Per model, its keyed policy's attributes; empty for a policy that is not keyed, or one that could not be read.
     */
    private final Map<String, Optional<Set<String>>> byModel = new ConcurrentHashMap<>();

    public DecidingAttributes(Visibility visibility) {
        this.visibility = visibility;
    }

    /**
     * The attributes that decide {@code scope}, or {@code null} when they cannot be told. A scope holding every key
     * is decided by its filter alone.
     */
    public Set<String> of(Scope scope) {
        Set<String> deciding = new HashSet<>();
        for (Filter.Condition condition : scope.filter().conditions()) {
            deciding.add(condition.attribute());
        }
        if (scope.keys() != null && scope.keys().isAll()) {
            return deciding;
        }
        Optional<Set<String>> policy = byModel.computeIfAbsent(scope.model(), this::policyAttributes);
        if (policy.isEmpty()) {
            return null;
        }
        deciding.addAll(policy.get());
        return deciding;
    }

    /**
     * The attributes {@code model}'s keyed policy reads its keys from; empty under a policy that is not keyed, or one
     * whose expressions could not be built (then its rows are decided only as far as the state after a batch tells).
     */
    protected Optional<Set<String>> policyAttributes(String model) {
        try {
            Optional<VisibilityPolicy<?>> policy = visibility.policy(model);
            if (policy.isEmpty() || !(policy.get() instanceof KeyedVisibilityPolicy<?> keyed)) {
                return Optional.empty();
            }
            return keyAttributes(keyed);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Thrown from here is caught by {@link #policyAttributes}: a policy whose expressions cannot be built here. */
    private static <E> Optional<Set<String>> keyAttributes(KeyedVisibilityPolicy<E> keyed) {
        CriteriaBuilder cb = keyed.entityManager().getCriteriaBuilder();
        Root<E> root = cb.createTupleQuery().from(keyed.entity());
        Set<String> names = new HashSet<>();
        for (Expression<?> expression : keyed.visibleBy(cb, root)) {
            String first = firstAttribute(expression);
            if (first == null) {
                return Optional.empty();
            }
            names.add(first);
            if (throughJoin(expression)) {
                names.add(PARTS);
            }
        }
        return Optional.of(Set.copyOf(names));
    }

    /** Whether a path goes through a join the policy made ({@code root.join("readers").get("name")}). */
    private static boolean throughJoin(Expression<?> expression) {
        for (Path<?> step = (Path<?>) expression; step != null; step = step.getParentPath()) {
            if (step instanceof Join<?, ?>) {
                return true;
            }
        }
        return false;
    }

    /** The attribute of the root a path starts from; {@code null} for an expression that is no path from the root. */
    private static String firstAttribute(Expression<?> expression) {
        if (!(expression instanceof Path<?> path)) {
            return null;
        }
        Path<?> step = path;
        while (step != null && !(step.getParentPath() instanceof Root<?>)) {
            step = step.getParentPath();
        }
        if (step == null) {
            return null;
        }
        if (step instanceof Join<?, ?> join) {
            return join.getAttribute().getName();
        }
        return step.getModel() instanceof Attribute<?, ?> attribute ? attribute.getName() : null;
    }
}
