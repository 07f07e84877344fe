package io.objectstreams;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/**
 * A ready policy: every authenticated viewer may read every object of the model; anonymous viewers see
 * nothing. Subclass it with {@code entity()} and {@code entityManager()}.
 *
 * <p>As a session bean, repeat {@code implements VisibilityPolicy<E>} on the subclass: a session bean's bean
 * types are only the interfaces it implements directly, so an interface inherited from this class would not
 * make it a policy the engine can find.
 */
public abstract class AuthenticatedVisibility<E> implements VisibilityPolicy<E> {

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<E> root) {
        return viewer.isAnonymous() ? cb.disjunction() : cb.conjunction();
    }
}
