package io.objectstreams.it.support.server;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/**
 * The natural owner-only policy, written without a thought for anonymous viewers: for one, whose name is
 * {@code null}, the predicate reads {@code owner = null}, which a provider may turn into {@code owner IS NULL}.
 * The engine must deny anonymous viewers before the policy is asked.
 */
@Stateless
public class ItOwnedVisibility implements VisibilityPolicy<ItOwned> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItOwned> entity() {
        return ItOwned.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItOwned> root) {
        return cb.equal(root.get("owner"), viewer.name());
    }
}
