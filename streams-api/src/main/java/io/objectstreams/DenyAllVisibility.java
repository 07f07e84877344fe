package io.objectstreams;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/**
 * A ready policy: nobody may subscribe to the model, although its changes are still captured (for example
 * for another model's facet, or for a later policy). Subclass it with {@code entity()} and
 * {@code entityManager()}.
 *
 * <p>A session bean subclass need not repeat {@code implements VisibilityPolicy<E>}: its bean types are only the
 * interfaces it implements itself, but the engine also finds policies by their bean class.
 */
public abstract class DenyAllVisibility<E> implements VisibilityPolicy<E> {

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<E> root) {
        return cb.disjunction();
    }
}
