package io.objectstreams;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.List;

/**
 * A visibility policy stated as keys, for rules of the form "a row is visible to whoever holds its owner (or its
 * tenant, ...)". The policy names what a row is visible by ({@link #visibleBy}: one or more expressions on the
 * root, such as an owner or a tenant column) and which values of them a viewer holds ({@link #keysOf}). The engine
 * then decides visibility for every viewer of a batch with one query per (model, filter), reading each subject's
 * keys, and matches the viewers in memory: the cost of a batch no longer grows with the number of viewers.
 *
 * <p>{@link #visibleTo} is derived from the two and need not be written. Where the engine asks about one
 * subscription (a subscribe's membership read), it states the keys the subscription started with as the same
 * predicate ({@link VisibilityKeys#toPredicate}), so a viewer's keys are asked once per subscription wherever
 * visibility is decided.
 *
 * <p>{@link #keysOf} is asked once per subscription, when it starts, like the roles of a connection: a change of a
 * viewer's keys (a new tenant) takes effect on their next subscribe. As a session bean, implement this interface
 * directly (see {@link AuthenticatedVisibility}).
 *
 * @param <E> the streamed entity
 */
public interface KeyedVisibilityPolicy<E> extends VisibilityPolicy<E> {

    /**
     * What a row is visible by: one or more expressions on {@code root}, in a fixed order. A path through a to-one
     * association ({@code root.get("folder").get("tenant")}) is read through a left join of it, so a row whose link
     * is null has a NULL key there (visible through the other expressions, and to holders of every key) instead of
     * no keys at all; joins made with {@code root.join} are read as made.
     */
    List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<E> root);

    /**
     * The keys {@code viewer} holds: one collection of values per expression of {@link #visibleBy}, or
     * {@link VisibilityKeys#all()} or {@link VisibilityKeys#none()}. Anonymous viewers reach this method only if
     * {@link #admitsAnonymous()} is true.
     */
    VisibilityKeys keysOf(Viewer viewer);

    /** The predicate the keys state: some key expression's value is one the viewer holds. */
    @Override
    default Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<E> root) {
        VisibilityKeys keys = keysOf(viewer);
        // Every row: without asking visibleBy, whose joins would multiply the rows of the query.
        return keys.isAll() ? cb.conjunction() : keys.toPredicate(visibleBy(cb, root), cb);
    }
}
