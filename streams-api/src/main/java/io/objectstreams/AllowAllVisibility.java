package io.objectstreams;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/**
 * A ready policy: every viewer, anonymous ones included, may read every object of the model. Use it only for
 * data that is deliberately public. Subclass it with {@code entity()} and {@code entityManager()}.
 *
 * <p>A session bean subclass need not repeat {@code implements VisibilityPolicy<E>}: its bean types are only the
 * interfaces it implements itself, but the engine also finds policies by their bean class.
 */
public abstract class AllowAllVisibility<E> implements VisibilityPolicy<E> {

    /** Deliberately public: anonymous viewers too. */
    @Override
    public boolean admitsAnonymous() {
        return true;
    }

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<E> root) {
        return cb.conjunction();
    }
}
