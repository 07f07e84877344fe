package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.web.filter.Filter;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The rows of keys of a model's subjects under a {@link KeyedVisibilityPolicy}, read in one query: by subject pk,
 * one list of key texts per row (a key expression through a collection gives a subject several rows, and it is
 * visible through any of them). A subject that exists and matches the filter but has no row of keys (an inner join
 * of the policy's that finds nothing) is there with no rows: visible only to a viewer holding every key, as
 * {@link KeyedVisibilityPolicy#visibleTo} has it ({@link VisibilityKeys#admitsAny}).
 */
final class KeyRows {

    private KeyRows() {
    }

    /**
     * The keys of each of {@code pks} that exists and matches {@code filter}, or of every row that matches it when
     * {@code pks} is {@code null}; at most {@code maxRows} rows are read.
     */
    static <E> Map<String, List<List<String>>> read(EntityManager em, KeyedVisibilityPolicy<E> policy, Filter filter,
                                                    Collection<String> pks, int maxRows) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Tuple> query = cb.createTupleQuery();
        Root<E> root = query.from(policy.entity());
        Path<Object> id = id(em, policy, root);
        List<Expression<?>> by = policy.visibleBy(cb, root);
        for (Expression<?> key : by) {
            if (!VisibilityKeys.supportsKeyType(key.getJavaType())) {
                throw new IllegalStateException(policy.getClass().getName() + ".visibleBy names an expression of type "
                        + key.getJavaType().getName() + ", which keys cannot have (text, whole numbers, UUIDs, booleans"
                        + " and enums can); use a predicate policy for it");
            }
        }
        List<Selection<?>> columns = new ArrayList<>();
        columns.add(id);
        columns.addAll(by);
        List<Object> ids = pks == null ? null : ids(em, policy, pks);
        if (ids != null && ids.isEmpty()) {
            return Map.of();
        }
        query.multiselect(columns).where(where(cb, root, id, ids, filter));
        Map<String, List<List<String>>> keysOf = new HashMap<>();
        for (Tuple row : limited(em.createQuery(query), maxRows).getResultList()) {
            List<String> rowKeys = new ArrayList<>(by.size());
            for (int i = 1; i <= by.size(); i++) {
                rowKeys.add(VisibilityKeys.keyText(row.get(i)));
            }
            keysOf.computeIfAbsent(String.valueOf(row.get(0)), k -> new ArrayList<>(1)).add(rowKeys);
        }
        if (!root.getJoins().isEmpty()) {
            // Through a join, a subject with nothing to join has no row above; it exists all the same.
            CriteriaQuery<Object> exists = cb.createQuery(Object.class);
            Root<E> plain = exists.from(policy.entity());
            Path<Object> plainId = id(em, policy, plain);
            exists.select(plainId).where(where(cb, plain, plainId, ids, filter));
            for (Object value : limited(em.createQuery(exists), maxRows).getResultList()) {
                keysOf.putIfAbsent(String.valueOf(value), new ArrayList<>(0));
            }
        }
        return keysOf;
    }

    private static <E> Predicate[] where(CriteriaBuilder cb, Root<E> root, Path<Object> id, List<Object> ids,
                                         Filter filter) {
        return ids == null ? new Predicate[] {filter.toPredicate(cb, root)}
                : new Predicate[] {id.in(ids), filter.toPredicate(cb, root)};
    }

    private static <T> TypedQuery<T> limited(TypedQuery<T> query, int maxRows) {
        return maxRows < Integer.MAX_VALUE ? query.setMaxResults(maxRows) : query;
    }

    static <E> Path<Object> id(EntityManager em, VisibilityPolicy<E> policy, Root<E> root) {
        var entity = em.getMetamodel().entity(policy.entity());
        return root.get(entity.getId(entity.getIdType().getJavaType()).getName());
    }

    static <E> List<Object> ids(EntityManager em, VisibilityPolicy<E> policy, Collection<String> pks) {
        Class<?> type = em.getMetamodel().entity(policy.entity()).getIdType().getJavaType();
        return pks.stream().map(pk -> parseId(pk, type)).filter(Objects::nonNull).toList();
    }

    /** A pk that cannot be an id of this entity names nothing, so nothing visible. */
    static Object parseId(String pk, Class<?> type) {
        try {
            if (type == Long.class || type == long.class) {
                return Long.valueOf(pk);
            }
            if (type == Integer.class || type == int.class) {
                return Integer.valueOf(pk);
            }
            if (type == UUID.class) {
                return UUID.fromString(pk);
            }
            return type == String.class ? pk : null;
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }
}
