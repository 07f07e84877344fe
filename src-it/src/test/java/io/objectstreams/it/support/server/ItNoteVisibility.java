package io.objectstreams.it.support.server;

import io.objectstreams.AuthenticatedVisibility;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The test notes may be read by any authenticated viewer: exercises a ready policy. Tests can make it fail or
 * slow on one server ({@link VisibilityFaultResource}), as an application's policy might.
 */
@Stateless
public class ItNoteVisibility extends AuthenticatedVisibility<ItNote> implements VisibilityPolicy<ItNote> {

    /** Calls of {@link #visibleTo} still to fail. */
    static final AtomicInteger FAILURES = new AtomicInteger();
    /** How long each call of {@link #visibleTo} sleeps. */
    static final AtomicLong DELAY_MILLIS = new AtomicLong();

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

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItNote> root) {
        if (FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("ItNoteVisibility fails on purpose (test fault)");
        }
        long delay = DELAY_MILLIS.get();
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return super.visibleTo(viewer, cb, root);
    }
}
