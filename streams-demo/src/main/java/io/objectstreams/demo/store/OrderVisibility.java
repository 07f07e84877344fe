package io.objectstreams.demo.store;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.Set;

/**
 * Who may see an order: its owner, and staff; nobody anonymous. The same rule as the REST API's.
 *
 * <p>A stateless session bean (also a CDI bean) rather than a plain CDI bean: on WildFly a
 * {@code @PersistenceContext} in a plain CDI bean of a WAR inside an EAR fails deployment
 * ({@code ServiceNotFoundException} for the persistence unit service), while the EJB component environment
 * resolves it on every server.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class OrderVisibility implements VisibilityPolicy<CustomerOrder> {

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

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<CustomerOrder> root) {
        if (viewer.isAnonymous()) {
            return cb.disjunction();
        }
        if (viewer.hasRole("staff")) {
            return cb.conjunction();
        }
        return cb.equal(root.get("owner"), viewer.name());
    }
}
