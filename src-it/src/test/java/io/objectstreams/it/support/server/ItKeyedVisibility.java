package io.objectstreams.it.support.server;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

/** Composite keys under a policy on a key part: alice reads region {@code eu}, everyone else {@code us}. */
@Stateless
public class ItKeyedVisibility implements VisibilityPolicy<ItKeyed> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItKeyed> entity() {
        return ItKeyed.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItKeyed> root) {
        return cb.equal(root.get("id").get("region"), region(viewer));
    }

    static String region(Viewer viewer) {
        return "alice".equals(viewer.name()) ? "eu" : "us";
    }
}
