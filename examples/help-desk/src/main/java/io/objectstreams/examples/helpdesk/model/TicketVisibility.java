package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.examples.helpdesk.security.HelpDeskUsers;
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
 * Who may see a ticket: the agents of the tenant its team belongs to, and administrators. The key is read through
 * a nullable to-one path, ticket → team → tenant: a ticket without a team has no key, so only administrators see it.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class TicketVisibility implements KeyedVisibilityPolicy<Ticket> {

    @PersistenceContext(unitName = "helpdesk")
    EntityManager em;

    @Override
    public Class<Ticket> entity() {
        return Ticket.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    /** The roles {@link #keysOf} asks about. */
    @Override
    public Set<String> roles() {
        return Set.of(HelpDeskUsers.ADMIN);
    }

    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<Ticket> ticket) {
        return List.of(ticket.get("team").get("tenant").get("id"));
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        return HelpDeskUsers.tenantKeys(viewer);
    }
}
