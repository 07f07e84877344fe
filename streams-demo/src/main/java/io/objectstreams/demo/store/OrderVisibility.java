package io.objectstreams.demo.store;

import io.objectstreams.Viewer;
import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.VisibilityKeys;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import java.util.List;
import java.util.Set;

/**
 * Who may see an order: its owner, and staff; nobody anonymous (the default: anonymous viewers never reach
 * {@link #keysOf}). The same rule as the REST API's, stated as keys: an order is visible by its owner column.
 *
 * <p>A stateless session bean (also a CDI bean) rather than a plain CDI bean: on WildFly a
 * {@code @PersistenceContext} in a plain CDI bean of a WAR inside an EAR fails deployment
 * ({@code ServiceNotFoundException} for the persistence unit service), while the EJB component environment
 * resolves it on every server.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OrderVisibility implements KeyedVisibilityPolicy<CustomerOrder> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<CustomerOrder> entity() {
        return CustomerOrder.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public Set<String> roles() {
        return Set.of("staff");
    }

    /** An order is visible by its owner: one query per batch decides it for every viewer. */
    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<CustomerOrder> root) {
        return List.of(root.get("owner"));
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        if (viewer.hasRole("staff")) {
            return VisibilityKeys.all();
        }
        return VisibilityKeys.of(Set.of(viewer.name()));
    }
}
