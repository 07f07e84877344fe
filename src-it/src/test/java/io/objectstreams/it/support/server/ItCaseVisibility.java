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
import java.util.Set;
import java.util.UUID;

/** A case is visible to the tenant of its desk, a UUID: alice's tenant is {@link #ALICE}, bob's {@link #BOB}. */
@Stateless
public class ItCaseVisibility implements KeyedVisibilityPolicy<ItCase> {

    public static final UUID ALICE = UUID.fromString("a0000000-0000-4000-8000-00000000000a");
    public static final UUID BOB = UUID.fromString("b0000000-0000-4000-8000-00000000000b");

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItCase> entity() {
        return ItCase.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<ItCase> root) {
        return List.of(root.get("desk").get("tenant"));
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        return switch (viewer.name()) {
            case "alice" -> VisibilityKeys.of(Set.of(ALICE));
            case "bob" -> VisibilityKeys.of(Set.of(BOB));
            default -> VisibilityKeys.none();
        };
    }
}
