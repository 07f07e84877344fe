package io.objectstreams.web.filter;

import io.objectstreams.Lookup;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.Comparator;
import java.util.List;

/**
 * A validated filter: conditions on declared attributes, in a canonical order so that two subscriptions sending
 * the same constraints (in any key order) are the same value and share one membership query per batch.
 *
 * @param conditions the constraints, all of which must hold
 */
public record Filter(List<Condition> conditions) {

    /** No constraint beyond visibility: object and model subscriptions, and an empty filter object. */
    public static final Filter NONE = new Filter(List.of());

    public Filter {
        conditions = conditions.stream().sorted(Comparator.comparing(Condition::key)).toList();
    }

    /**
     * One constraint. {@code value} is converted to the attribute's Java type: a {@code List} for
     * {@link Lookup#IN}, a {@code Boolean} for {@link Lookup#ISNULL}.
     */
    public record Condition(String attribute, Lookup lookup, Object value) {

        String key() {
            return lookup == Lookup.EXACT ? attribute : attribute + "__" + lookup.suffix();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        Predicate toPredicate(CriteriaBuilder cb, Root<?> root) {
            Path<Object> path = root.get(attribute);
            Expression<Comparable> comparable = (Expression<Comparable>) (Expression<?>) path;
            return switch (lookup) {
                case EXACT -> cb.equal(path, value);
                case IN -> path.in((List<?>) value);
                case GT -> cb.greaterThan(comparable, (Comparable) value);
                case GTE -> cb.greaterThanOrEqualTo(comparable, (Comparable) value);
                case LT -> cb.lessThan(comparable, (Comparable) value);
                case LTE -> cb.lessThanOrEqualTo(comparable, (Comparable) value);
                case ISNULL -> (Boolean) value ? cb.isNull(path) : cb.isNotNull(path);
            };
        }
    }

    public boolean isEmpty() {
        return conditions.isEmpty();
    }

    /** The filter as a Criteria predicate on {@code root}; {@code conjunction()} when empty. */
    public Predicate toPredicate(CriteriaBuilder cb, Root<?> root) {
        return cb.and(conditions.stream().map(c -> c.toPredicate(cb, root)).toArray(Predicate[]::new));
    }
}
