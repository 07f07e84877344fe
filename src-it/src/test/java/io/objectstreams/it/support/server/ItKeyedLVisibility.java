package io.objectstreams.it.support.server;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/** As {@link ItKeyedVisibility}, for the {@code @IdClass} entity: alice reads region {@code eu}, others {@code us}. */
@Stateless
public class ItKeyedLVisibility implements VisibilityPolicy<ItKeyedL> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItKeyedL> entity() {
        return ItKeyedL.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItKeyedL> root) {
        return cb.equal(root.get("region"), ItKeyedVisibility.region(viewer));
    }
}
