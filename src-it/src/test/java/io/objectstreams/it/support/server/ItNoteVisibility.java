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
    /** How long each call of {@link #visibleTo} on the delivery thread sleeps: fan-out slows, subscribes do not. */
    static final AtomicLong DELIVERY_DELAY_MILLIS = new AtomicLong();
    /** A viewer for whom every call of {@link #visibleTo} fails (empty: none), as a policy broken for one user. */
    static final java.util.concurrent.atomic.AtomicReference<String> FAILING_VIEWER = new java.util.concurrent.atomic.AtomicReference<>("");
    /**
     * While set and not counted down, each call of {@link #visibleTo} on the delivery thread waits for it (at most a
     * minute): fan-out stops at the first batch with a note in it, for a test that needs later batches held back
     * until it has looked, whatever the machine's load.
     */
    static final java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CountDownLatch> HOLD =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** A note no viewer may read any more (0: none), as when an application revokes access. */
    static final AtomicLong HIDDEN = new AtomicLong();

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
        if (FAILURES.getAndUpdate(n -> Math.max(0, n - 1)) > 0 || FAILING_VIEWER.get().equals(viewer.name())) {
            throw new IllegalStateException("ItNoteVisibility fails on purpose (test fault)");
        }
        boolean delivering = Thread.currentThread().getName().contains("object-streams-delivery");
        java.util.concurrent.CountDownLatch hold = HOLD.get();
        if (delivering && hold != null) {
            try {
                hold.await(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long delay = DELAY_MILLIS.get() + (delivering ? DELIVERY_DELAY_MILLIS.get() : 0);
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long hidden = HIDDEN.get();
        return hidden == 0 ? super.visibleTo(viewer, cb, root)
                : cb.and(super.visibleTo(viewer, cb, root), cb.notEqual(root.get("id"), hidden));
    }
}
