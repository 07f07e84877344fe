package io.objectstreams;

import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.Set;

/**
 * Decides which objects of one streamed model a viewer may read (G8). Implement it as a CDI bean in the
 * application, one per {@code @Streamed} entity that subscribers may watch; a model without a policy is
 * visible to nobody.
 *
 * <p>The policy is a JPA Criteria predicate, so the engine can check many objects for one viewer in a single
 * query, through the application's own persistence unit.
 *
 * @param <E> the streamed entity
 */
public interface VisibilityPolicy<E> {

    /** The {@code @Streamed} entity class this policy governs. */
    Class<E> entity();

    /**
     * An entity manager of the persistence unit that maps {@link #entity()}. The engine only asks it for its
     * factory, and runs its queries through short-lived entity managers of its own, read-only.
     */
    EntityManager entityManager();

    /**
     * The roles this policy consults through {@link Viewer#hasRole}. They are checked when a connection is
     * authenticated, since roles cannot be queried later on a WebSocket session.
     */
    default Set<String> roles() {
        return Set.of();
    }

    /**
     * Whether anonymous viewers (connections without a caller principal) may read anything of this model. When
     * false, the default, the engine answers them "nothing" without asking {@link #visibleTo}: a natural
     * owner-only predicate such as {@code owner = viewer.name()} would otherwise read {@code owner IS NULL} for
     * them on some providers. Return true only for deliberately public data, as {@link AllowAllVisibility} does.
     */
    default boolean admitsAnonymous() {
        return false;
    }

    /**
     * Restricts {@code root} to what {@code viewer} may read. Return {@code cb.conjunction()} for everything
     * and {@code cb.disjunction()} for nothing. Anonymous viewers reach this method only if
     * {@link #admitsAnonymous()} is true.
     */
    Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<E> root);
}
