package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.AuthenticatedVisibility;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Tags are shared by every tenant: any signed-in user sees them, nobody anonymous. */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class TagVisibility extends AuthenticatedVisibility<Tag> {

    @PersistenceContext(unitName = "helpdesk")
    EntityManager em;

    @Override
    public Class<Tag> entity() {
        return Tag.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }
}
