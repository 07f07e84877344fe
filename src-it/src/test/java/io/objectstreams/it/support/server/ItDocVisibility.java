package io.objectstreams.it.support.server;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Documents visible by their owner, with every {@link #keysOf} counted per viewer ({@link DocKeysResource}): a
 * subscription must ask its viewer's keys once, when it starts, and decide everything after with them.
 */
@Stateless
public class ItDocVisibility implements KeyedVisibilityPolicy<ItDoc> {

    static final Map<String, AtomicInteger> ASKED = new ConcurrentHashMap<>();

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItDoc> entity() {
        return ItDoc.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<ItDoc> root) {
        return List.of(root.get("owner"));
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        ASKED.computeIfAbsent(viewer.name(), name -> new AtomicInteger()).incrementAndGet();
        return VisibilityKeys.of(Set.of(viewer.name()));
    }
}
