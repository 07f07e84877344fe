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

/** A ticket's tag is visible to whoever may see the ticket: the same key, one join further. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class TicketTagVisibility implements KeyedVisibilityPolicy<TicketTag> {

    @PersistenceContext(unitName = "helpdesk")
    EntityManager em;

    @Override
    public Class<TicketTag> entity() {
        return TicketTag.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public Set<String> roles() {
        return Set.of(HelpDeskUsers.ADMIN);
    }

    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<TicketTag> tag) {
        return List.of(tag.get("ticket").get("team").get("tenant").get("id"));
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        return HelpDeskUsers.tenantKeys(viewer);
    }
}
