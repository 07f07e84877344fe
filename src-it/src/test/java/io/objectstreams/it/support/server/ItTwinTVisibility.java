package io.objectstreams.it.support.server;

import io.objectstreams.AuthenticatedVisibility;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Any authenticated viewer may read the trigger-captured twins: their events are delivered like any others. */
@Stateless
public class ItTwinTVisibility extends AuthenticatedVisibility<ItTwinT> implements VisibilityPolicy<ItTwinT> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItTwinT> entity() {
        return ItTwinT.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }
}
