package io.objectstreams.web.visibility;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.internal.visibility.KeyPaths;
import io.objectstreams.web.filter.Filter;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Tuple;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.From;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The rows of keys of a model's subjects under a {@link KeyedVisibilityPolicy}, read in one query: by subject pk,
 * one list of key texts per row (a key expression through a collection gives a subject several rows, and it is
 * visible through any of them). A key path through a to-one link is read through a left join ({@link KeyPaths}):
 * a subject whose link is null has a row with a NULL key there. A subject that exists and matches the filter but has
 * no row of keys (an inner join of the policy's own that finds nothing) is there with no rows: visible only to a
 * viewer holding every key, as {@link KeyedVisibilityPolicy#visibleTo} has it ({@link VisibilityKeys#admitsAny}).
 */
final class KeyRows {

    private static final Logger LOG = Logger.getLogger(KeyRows.class.getName());
    /** The models already logged for a UUID key that held no UUID: one line each, however many rows. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private KeyRows() {
    }

    /** The keys of each of {@code pks} that exists and matches {@code filter}. */
    static <E> Map<String, List<List<String>>> read(EntityManager em, KeyedVisibilityPolicy<E> policy, Filter filter,
                                                    Collection<String> pks) {
        SubjectId subjects = SubjectId.of(policy.entity());
        List<Object> ids = subjects.parse(pks);
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<String, List<List<String>>> keysOf = new HashMap<>();
        for (List<Object> chunk : subjects.chunks(ids)) {
            keysOf.putAll(read(em, policy, filter, chunk, Integer.MAX_VALUE));
        }
        Set<String> exact = subjects.exact(pks);
        if (exact != null) {
            keysOf.keySet().retainAll(exact);
        }
        return keysOf;
    }

    /**
     * The keys of every subject that matches {@code filter}, when holding them takes at most {@code maxRows} rows
     * (each row of keys, and one for each subject that has none); otherwise empty: too many to hold.
     */
    static <E> Optional<Map<String, List<List<String>>>> readAll(EntityManager em, KeyedVisibilityPolicy<E> policy,
                                                                 Filter filter, int maxRows) {
        // Both queries stop one past the bound, and every subject either finds is held (with its rows, or none): a
        // read that stopped early holds more than maxRows, and is refused whole, never kept with subjects missing.
        // A subject missing here would be missing from the members of every viewer holding all keys (G10).
        int limit = maxRows == Integer.MAX_VALUE ? maxRows : maxRows + 1;
        Map<String, List<List<String>>> keysOf = read(em, policy, filter, null, limit);
        long held = keysOf.values().stream().mapToLong(rows -> Math.max(1, rows.size())).sum();
        return held > maxRows ? Optional.empty() : Optional.of(keysOf);
    }

    /** The keys of the subjects of {@code ids}, or of all when {@code null}; each query reads {@code limit} rows. */
    private static <E> Map<String, List<List<String>>> read(EntityManager em, KeyedVisibilityPolicy<E> policy,
                                                            Filter filter, List<Object> ids, int limit) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Tuple> query = cb.createTupleQuery();
        Root<E> root = query.from(policy.entity());
        SubjectId subjects = SubjectId.of(policy.entity());
        List<Path<Object>> key = subjects.select(root);
        List<Expression<?>> by = KeyPaths.leftJoined(policy.visibleBy(cb, root));
        requireKeyTypes(policy, by);
        List<Selection<?>> columns = new ArrayList<>(key);
        by.forEach(expression -> columns.add(readable(cb, expression)));
        query.multiselect(columns).where(where(cb, root, subjects, key, ids, filter));
        Map<String, List<List<String>>> keysOf = new HashMap<>();
        int from = subjects.width();
        String model = root.getJavaType().getName();
        for (Tuple row : limited(em.createQuery(query), limit).getResultList()) {
            List<String> rowKeys = new ArrayList<>(by.size());
            for (int i = 0; i < by.size(); i++) {
                Object value = row.get(from + i);
                rowKeys.add(isUuid(by.get(i)) ? uuidText(value, model) : VisibilityKeys.keyText(value));
            }
            keysOf.computeIfAbsent(subjects.pk(row, 0), k -> new ArrayList<>(1)).add(rowKeys);
        }
        if (dropsRows(root)) {
            // Through an inner join, a subject with nothing to join has no row above; it exists all the same.
            CriteriaQuery<Tuple> exists = cb.createTupleQuery();
            Root<E> plain = exists.from(policy.entity());
            List<Path<Object>> plainKey = subjects.select(plain);
            exists.multiselect(new ArrayList<Selection<?>>(plainKey))
                    .where(where(cb, plain, subjects, plainKey, ids, filter));
            for (Tuple row : limited(em.createQuery(exists), limit).getResultList()) {
                keysOf.putIfAbsent(subjects.pk(row, 0), new ArrayList<>(0));
            }
        }
        return keysOf;
    }

    /**
     * A key expression as the query selects it. A UUID is read as its text, which is how keys compare anyway:
     * through a left join its value may be NULL, and EclipseLink's UUID converter fails on a NULL (a
     * {@code NullPointerException} in {@code UUIDConverter.convertDataValueToObjectValue}), failing the visibility
     * check of the whole batch. PostgreSQL's {@code text(uuid)} prints the form {@code UUID.toString} does.
     */
    private static Selection<?> readable(CriteriaBuilder cb, Expression<?> expression) {
        return isUuid(expression) ? cb.function("text", String.class, expression) : expression;
    }

    private static boolean isUuid(Expression<?> expression) {
        return UUID.class.equals(expression.getJavaType());
    }

    /**
     * A UUID key's text as keys compare it; {@code null} (visible by nothing) for NULL and for a column that does not
     * hold a UUID's text (a UUID attribute stored through a converter in another form). The latter is logged once
     * per model, without the value: its rows are visible to no one by that key, which is safe but surely not meant.
     */
    static String uuidText(Object text, String model) {
        try {
            return text == null ? null : VisibilityKeys.keyText(UUID.fromString(text.toString().trim()));
        } catch (IllegalArgumentException notUuid) {
            if (WARNED.add(model)) {
                LOG.warning("The visibility policy of " + model + " names a UUID key whose column holds text that is"
                        + " no UUID (a converter storing it in another form?); rows with such a key are visible by"
                        + " nothing through it. Said once per model");
            }
            return null;
        }
    }

    private static void requireKeyTypes(KeyedVisibilityPolicy<?> policy, List<Expression<?>> by) {
        for (Expression<?> expression : by) {
            if (!VisibilityKeys.supportsKeyType(expression.getJavaType())) {
                throw new IllegalStateException(policy.getClass().getName() + ".visibleBy names an expression of type "
                        + expression.getJavaType().getName() + ", which keys cannot have (text, whole numbers, UUIDs,"
                        + " booleans and enums can); use a predicate policy for it");
            }
        }
    }

    /**
     * Whether some join of the query is not a left join, so that a subject may have no row of keys. EclipseLink also
     * lists here the inner joins its paths made, used or not, and they cannot be told from a policy's own: there a
     * key path through a link still costs this second query.
     */
    private static boolean dropsRows(From<?, ?> from) {
        for (Join<?, ?> join : from.getJoins()) {
            if (join.getJoinType() != JoinType.LEFT || dropsRows(join)) {
                return true;
            }
        }
        return false;
    }

    private static <E> Predicate[] where(CriteriaBuilder cb, Root<E> root, SubjectId subjects, List<Path<Object>> key,
                                         List<Object> ids, Filter filter) {
        return ids == null ? new Predicate[] {filter.toPredicate(cb, root)}
                : new Predicate[] {subjects.among(cb, key, ids), filter.toPredicate(cb, root)};
    }

    private static <T> TypedQuery<T> limited(TypedQuery<T> query, int maxRows) {
        return maxRows < Integer.MAX_VALUE ? query.setMaxResults(maxRows) : query;
    }
}
