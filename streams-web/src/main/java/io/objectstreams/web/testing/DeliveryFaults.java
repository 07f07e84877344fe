package io.objectstreams.web.testing;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * Deliberate delivery defects, for proving that a test's oracle catches them (docs/testing.md). Each fault is armed
 * once and fires once, at the next message it applies to. Off unless the JVM was started with the switch: the system
 * property {@value #PROPERTY} or the environment variable {@value #ENVIRONMENT} set to {@code enabled}. Without it,
 * {@link #arm} refuses and nothing here ever fires, and the checks on the delivery path test a constant the JIT
 * folds away; with it, the server logs a SEVERE line when the class is loaded, which {@link #announce()} makes
 * happen at deployment rather than at the first delivery (where it would land in a test's log watch).
 */
public final class DeliveryFaults {

    public static final String PROPERTY = "objectstreams.test-faults";
    public static final String ENVIRONMENT = "OBJECTSTREAMS_TEST_FAULTS";

    /** What a fault does to the next message it applies to. */
    public enum Fault {
        /** An event a subscription is owed is not sent. */
        DROP_EVENT,
        /** An event is sent twice. */
        DUPLICATE_EVENT,
        /** An event is held back and sent after its subscription's next one. */
        REORDER_EVENTS,
        /** A model subscription is sent, as {@code added}, an event about an object its viewer cannot read. */
        LEAK_EVENT,
        /** An SSE {@code subscribed} frame's {@code id:} is 3 cursors ahead of what the client was brought up to. */
        FUTURE_SUBSCRIBED_ID,
        /**
         * A held object's row is not decided when a later transaction of its batch deletes the object, so the delete
         * reaches a viewer who may have lost sight of it in between, as {@code deleted} (the defect of issue 40
         * item 12).
         */
        DELETE_AFTER_HIDE
    }

    private static final boolean PERMITTED = permitted();
    private static final AtomicReference<Fault> ARMED = new AtomicReference<>();
    /** When set, the armed fault fires only on a subscription whose id starts with it. */
    private static volatile String target;
    private static final Map<Fault, AtomicLong> FIRED = new EnumMap<>(Fault.class);

    static {
        for (Fault fault : Fault.values()) {
            FIRED.put(fault, new AtomicLong());
        }
        if (PERMITTED) {
            Logger.getLogger(DeliveryFaults.class.getName()).severe("Delivery faults can be armed in this JVM ("
                    + PROPERTY + "): a test server only, never production");
        }
    }

    private DeliveryFaults() {
    }

    /**
     * Loads this class, so that the SEVERE line of a JVM with faults permitted is logged now: called at deployment.
     * Returns whether faults are permitted.
     */
    public static boolean announce() {
        return PERMITTED;
    }

    private static boolean permitted() {
        String value = System.getProperty(PROPERTY, System.getenv(ENVIRONMENT));
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("enabled");
    }

    /** Arms {@code fault} (replacing any armed one), or {@code null} to disarm. */
    public static void arm(Fault fault) {
        arm(fault, null);
    }

    /**
     * Arms {@code fault} for the subscriptions whose id starts with {@code subscriptionPrefix} ({@code null}: any),
     * so that other connections on the server cannot take it.
     */
    public static void arm(Fault fault, String subscriptionPrefix) {
        if (!PERMITTED) {
            throw new IllegalStateException("Delivery faults are disabled: start the JVM with " + PROPERTY
                    + "=enabled (tests only)");
        }
        target = subscriptionPrefix;
        ARMED.set(fault);
    }

    /** Whether {@code fault} is armed, without firing it. */
    public static boolean armed(Fault fault) {
        return PERMITTED && ARMED.get() == fault;
    }

    /** Whether {@code fault} is armed; if so, it is disarmed and counted as fired. */
    public static boolean fire(Fault fault) {
        return fire(fault, null);
    }

    /**
     * {@link #fire(Fault)} for a message of subscription {@code subscriptionId} ({@code null}: of none in
     * particular).
     */
    public static boolean fire(Fault fault, String subscriptionId) {
        String only = target;
        if (!PERMITTED || ARMED.get() != fault || fault == null
                || only != null && subscriptionId != null && !subscriptionId.startsWith(only)
                || !ARMED.compareAndSet(fault, null)) {
            return false;
        }
        FIRED.get(fault).incrementAndGet();
        return true;
    }

    /** How often each fault fired since start. */
    public static Map<Fault, Long> fired() {
        Map<Fault, Long> counts = new EnumMap<>(Fault.class);
        FIRED.forEach((fault, count) -> counts.put(fault, count.get()));
        return counts;
    }
}
