package io.objectstreams.it.support.server;

import io.objectstreams.AuthenticatedVisibility;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Any authenticated viewer may read the trigger-captured twins: their events are delivered like any others. A session
 * bean that inherits the policy interface from the ready base class and does not repeat it, as an application
 * following the docs writes it: the engine must find it all the same (the help desk example found that it did not).
 */
@Stateless
public class ItTwinTVisibility extends AuthenticatedVisibility<ItTwinT> {

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
