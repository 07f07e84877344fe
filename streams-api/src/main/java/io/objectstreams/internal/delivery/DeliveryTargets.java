package io.objectstreams.internal.delivery;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamGap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the transports ({@code streams-web}) register to be handed every batch and gap the listener
 * ({@code streams-ejb}) delivers, before the CDI events that application observers see. A CDI observer that throws
 * stops CDI from notifying the observers after it, in an order the application may not control; handing the
 * transports their batches here, outside CDI, means no application observer can keep a batch from subscribers
 * (G10). Setting the transports' observer first with {@code @Priority} instead stopped delivery on Payara Server.
 *
 * <p>A class-level instance, like {@code HealthRegistry} and for the same reason: this class is in
 * {@code streams-api}, loaded once per application (EAR {@code lib/} or {@code WEB-INF/lib}) and seen by every
 * module. Tests make their own.
 */
public final class DeliveryTargets {

    private static final Logger LOG = Logger.getLogger(DeliveryTargets.class.getName());
    private static final DeliveryTargets APPLICATION = new DeliveryTargets();

    /** What receives the delivered batches and gaps; it should never throw. */
    public interface Target {
        void batch(StreamBatch batch);

        void gap(StreamGap gap);
    }

    private final Set<Target> targets = new CopyOnWriteArraySet<>();

    /** Only {@link #application()}'s, and tests'. */
    DeliveryTargets() {
    }

    /** The targets of this application. */
    public static DeliveryTargets application() {
        return APPLICATION;
    }

    public void register(Target target) {
        targets.add(Objects.requireNonNull(target));
    }

    public void unregister(Target target) {
        targets.remove(target);
    }

    /** Hands {@code batch} to every target; one that throws is logged, and the others still get it. */
    public void batch(StreamBatch batch) {
        for (Target target : targets) {
            try {
                target.batch(batch);
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "A delivery target failed for cursors " + batch.firstCursor() + ".."
                        + batch.lastCursor(), e);
            }
        }
    }

    /** Hands {@code gap} to every target; one that throws is logged, and the others still get it. */
    public void gap(StreamGap gap) {
        for (Target target : targets) {
            try {
                target.gap(gap);
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "A delivery target failed for the gap " + gap.fromCursor() + ".."
                        + gap.throughCursor(), e);
            }
        }
    }
}
