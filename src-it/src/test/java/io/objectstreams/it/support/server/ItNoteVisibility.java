package io.objectstreams.it.support.server;

import io.objectstreams.AuthenticatedVisibility;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** The test notes may be read by any authenticated viewer: exercises a ready policy. */
@Stateless
public class ItNoteVisibility extends AuthenticatedVisibility<ItNote> implements VisibilityPolicy<ItNote> {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Override
    public Class<ItNote> entity() {
        return ItNote.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }
}
