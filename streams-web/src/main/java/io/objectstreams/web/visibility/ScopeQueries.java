package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.web.filter.Filter;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import jakarta.persistence.criteria.Predicate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides, for many viewers at once, which subjects of one (model, filter) each may read: the fan-out's question for
 * a batch (G8, G9). Its cost does not grow with the number of viewers the way one query per viewer does:
 * <ul>
 * <li>under a {@link KeyedVisibilityPolicy}, one query reads each subject's keys, and every viewer is matched in
 * memory against the keys it holds;</li>
 * <li>under any other policy, one query answers up to {@code viewersPerQuery} viewers, with one
 * {@code CASE WHEN <the viewer's predicate> THEN 1 ELSE 0 END} column each.</li>
 * </ul>
 * Both give what one query per viewer gives
 * ({@code SetSubscriptionsIT#visibilityForManyViewersAtOnceIsExactlyEachViewersOwn}). A policy whose predicate joins is
 * asked one viewer at a time, and so is every viewer of a (model, filter) whose common query fails, so that only the
 * viewers whose own query fails are left undecided ({@code Visibility}).
 */
final class ScopeQueries {

    private ScopeQueries() {
    }

    /**
     * The subset of each scope's pks that exists, that its viewer may read and that matches {@code filter}; every
     * scope must be of {@code policy}'s model and of {@code filter}.
     */
    static <E> Map<Scope, Set<String>> decide(EntityManager em, VisibilityPolicy<E> policy, Filter filter,
                                              Map<Scope, Set<String>> pksByScope, int viewersPerQuery) {
        Map<Scope, Set<String>> decided = new HashMap<>();
        List<Scope> asked = new ArrayList<>();
        Set<String> union = new HashSet<>();
        pksByScope.forEach((scope, pks) -> {
            decided.put(scope, new HashSet<>());
            // Anonymous viewers are denied here unless the policy admits them (G8), as for one viewer.
            if (!pks.isEmpty() && (!scope.viewer().isAnonymous() || policy.admitsAnonymous())) {
                asked.add(scope);
                union.addAll(pks);
            }
        });
        if (asked.isEmpty()) {
            return decided;
        }
        if (policy instanceof KeyedVisibilityPolicy<E> keyed) {
            keyedMatches(em, keyed, filter, asked, pksByScope, union, decided);
        } else {
            for (int from = 0; from < asked.size(); from += viewersPerQuery) {
                List<Scope> chunk = asked.subList(from, Math.min(asked.size(), from + viewersPerQuery));
                multiplexedMatches(em, policy, filter, chunk, pksByScope, union, decided);
            }
        }
        return decided;
    }

    /** One keyed scope alone, with an entity manager of its own: the fallback when deciding many together failed. */
    static <E> Set<String> decide(EntityManagerFactory factory, VisibilityPolicy<E> policy, Scope scope,
                                  Set<String> pks) {
        EntityManager em = factory.createEntityManager();
        try {
            return decide(em, policy, scope.filter(), Map.of(scope, pks), 1).get(scope);
        } finally {
            em.close();
        }
    }

    /** The viewer's keys: the scope's, from its subscription's start, or asked of the policy now. */
    static VisibilityKeys keys(KeyedVisibilityPolicy<?> policy, Scope scope) {
        return scope.keys() != null ? scope.keys() : keysOf(policy, scope.viewer());
    }

    /** The policy's answer, never {@code null}. */
    static VisibilityKeys keysOf(KeyedVisibilityPolicy<?> policy, Viewer viewer) {
        return Objects.requireNonNull(policy.keysOf(viewer),
                () -> policy.getClass().getName() + ".keysOf returned null; return VisibilityKeys.none() instead");
    }

    private static <E> void keyedMatches(EntityManager em, KeyedVisibilityPolicy<E> policy, Filter filter,
                                         List<Scope> asked, Map<Scope, Set<String>> pksByScope, Set<String> union,
                                         Map<Scope, Set<String>> decided) {
        Map<Scope, VisibilityKeys> holders = new HashMap<>();
        for (Scope scope : asked) {
            VisibilityKeys keys = keys(policy, scope);
            if (!keys.isNone()) {
                holders.put(scope, keys);
            }
        }
        if (holders.isEmpty()) {
            return;
        }
        Map<String, List<List<String>>> keysOf = KeyRows.read(em, policy, filter, union);
        holders.forEach((scope, keys) -> {
            Set<String> visible = decided.get(scope);
            for (String pk : pksByScope.get(scope)) {
                List<List<String>> rows = keysOf.get(pk);
                if (keys.admitsAny(rows)) {
                    visible.add(pk);
                }
            }
        });
    }

    /**
     * The pks of {@code policy}'s entity that the scope's viewer may read and that match {@code filter}, among
     * {@code pks} unless {@code null}, at most {@code limit}: one query for one scope, under a keyed policy with the
     * keys the scope started with (asked of the policy now if it holds none).
     */
    static <E> Set<String> read(EntityManager em, VisibilityPolicy<E> policy, Scope scope, Filter filter,
                                  Collection<String> pks, int limit) {
        SubjectId subjects = SubjectId.of(policy.entity());
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Tuple> query = cb.createTupleQuery();
        Root<E> root = query.from(policy.entity());
        List<Path<Object>> key = subjects.select(root);
        List<Object> ids = pks == null ? null : subjects.parse(pks);
        if (ids != null && ids.isEmpty()) {
            return Set.of();
        }
        Predicate visible = policy instanceof KeyedVisibilityPolicy<E> keyed && scope.keys() != null
                ? scope.keys().isAll() ? cb.conjunction() : scope.keys().toPredicate(keyed.visibleBy(cb, root), cb)
                : policy.visibleTo(scope.viewer(), cb, root);
        Predicate filtered = filter.toPredicate(cb, root);
        Set<String> exact = pks == null ? null : subjects.exact(pks);
        Set<String> found = new HashSet<>();
        // A members list past one query's bind parameters is asked in parts, the same query each time.
        for (List<Object> chunk : ids == null ? Collections.<List<Object>>singletonList(null) : subjects.chunks(ids)) {
            Predicate[] where = chunk == null ? new Predicate[] {visible, filtered}
                    : new Predicate[] {subjects.among(cb, key, chunk), visible, filtered};
            // Distinct: a predicate that joins yields a subject once per joined row, and the limit must count subjects.
            query.multiselect(new ArrayList<Selection<?>>(key)).distinct(true).where(where);
            TypedQuery<Tuple> typed = em.createQuery(query);
            if (limit < Integer.MAX_VALUE && exact == null) {
                typed.setMaxResults(limit - found.size());
            }
            for (Tuple row : typed.getResultList()) {
                String pk = subjects.pk(row, 0);
                if ((exact == null || exact.contains(pk)) && found.size() < limit) {
                    found.add(pk);
                }
            }
            if (found.size() >= limit) {
                break;
            }
        }
        return found;
    }

    private static <E> void multiplexedMatches(EntityManager em, VisibilityPolicy<E> policy, Filter filter,
                                               List<Scope> chunk, Map<Scope, Set<String>> pksByScope,
                                               Set<String> union, Map<Scope, Set<String>> decided) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Tuple> query = cb.createTupleQuery();
        Root<E> root = query.from(policy.entity());
        SubjectId subjects = SubjectId.of(policy.entity());
        List<Path<Object>> key = subjects.select(root);
        List<Selection<?>> columns = new ArrayList<>(key);
        for (Scope scope : chunk) {
            columns.add(cb.<Integer>selectCase().when(neverConstant(cb, key.get(0),
                    policy.visibleTo(scope.viewer(), cb, root)), 1).otherwise(0));
        }
        if (!root.getJoins().isEmpty()) {
            // A predicate that joins adds its join once per viewer, multiplying rows (and an inner join drops rows
            // for every viewer of the query): such a policy is asked one viewer at a time.
            throw new MultiplexUnsupported(policy.getClass().getName() + ".visibleTo joins; decided per viewer");
        }
        List<Object> ids = subjects.parse(union);
        if (ids.isEmpty()) {
            return;
        }
        query.multiselect(columns);
        int from = subjects.width();
        List<Tuple> rows = new ArrayList<>();
        for (List<Object> part : subjects.chunks(ids)) {
            query.where(subjects.among(cb, key, part), filter.toPredicate(cb, root));
            List<Tuple> found = em.createQuery(query).getResultList();
            // Rows of pks asked for: a composite key's IN lists also find pks of the parts' cross product.
            long asked = found.stream().filter(row -> union.contains(subjects.pk(row, 0))).count();
            if (chunk.size() > 1 && asked < part.size()) {
                requireEveryRow(em, policy, filter, subjects, part, found);
            }
            rows.addAll(found);
        }
        for (Tuple row : rows) {
            String pk = subjects.pk(row, 0);
            for (int j = 0; j < chunk.size(); j++) {
                Object visible = row.get(from + j);
                Scope scope = chunk.get(j);
                if (visible instanceof Number n && n.intValue() == 1 && pksByScope.get(scope).contains(pk)) {
                    decided.get(scope).add(pk);
                }
            }
        }
    }

    /**
     * Throws {@link MultiplexUnsupported} when the shared query found fewer of {@code ids} than exist and match
     * {@code filter}. A predicate navigating a to-one link ({@code root.get("folder").get("tenant")}) is an implicit
     * inner join, which Hibernate does not list among the root's joins: shared, it would drop the subjects whose link
     * is null for every viewer of the query, not only for the one whose predicate reads it (G8). Asked only when some
     * of {@code ids} are missing, which a deleted subject, or one outside the filter, explains as well.
     */
    private static <E> void requireEveryRow(EntityManager em, VisibilityPolicy<E> policy, Filter filter,
                                            SubjectId subjects, List<Object> ids, List<Tuple> rows) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Tuple> exists = cb.createTupleQuery();
        Root<E> plain = exists.from(policy.entity());
        List<Path<Object>> key = subjects.select(plain);
        exists.multiselect(new ArrayList<Selection<?>>(key)).where(subjects.among(cb, key, ids),
                filter.toPredicate(cb, plain));
        List<Tuple> existing = em.createQuery(exists).getResultList();
        if (existing.size() > rows.size()) {
            throw new MultiplexUnsupported(policy.getClass().getName() + ".visibleTo navigates a link that may be"
                    + " null; decided per viewer");
        }
    }

    /** A policy whose predicates cannot share one query: its viewers are decided one query each. */
    static final class MultiplexUnsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MultiplexUnsupported(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * {@code id IS NOT NULL AND (id IS NULL OR visible)}: the same truth as {@code visible} (ids are never null), but
     * never a constant, whatever {@code visible} is. EclipseLink folds {@code conjunction()} and {@code disjunction()}
     * into the predicates around them ({@code x AND TRUE} is {@code x}, {@code x AND FALSE} is {@code FALSE}), and a
     * constant cannot be a CASE's condition there: as its first one it makes the query loop until
     * StackOverflowError, after another it is bound as a parameter PostgreSQL refuses as no boolean. Wrapped so, a
     * constant folds into one of the two null tests. (In a subquery's WHERE clause, a folded {@code FALSE} vanishes
     * instead, and every row matches: no EXISTS form either.)
     */
    private static Predicate neverConstant(CriteriaBuilder cb, Path<Object> id, Predicate visible) {
        return cb.and(cb.isNotNull(id), cb.or(cb.isNull(id), visible));
    }
}
