package io.objectstreams.health;

import java.util.Optional;

/**
 * Where the listener registers itself so the health checks can find it.
 *
 * <p>Why a static slot instead of CDI: WildFly registers MicroProfile Health checks only from an EAR's
 * {@code lib/} jars, and a bean there cannot see the EJB module that holds the listener. This class lives in
 * {@code streams-api}, which every module of the application sees (EAR {@code lib/} or {@code WEB-INF/lib}),
 * so it is one slot per application.
 */
public final class ListenerProbes {

    private static volatile ListenerProbe current;

    private ListenerProbes() {
    }

    public static void register(ListenerProbe probe) {
        current = probe;
    }

    /** Clears the slot if {@code probe} still holds it. */
    public static void unregister(ListenerProbe probe) {
        if (current == probe) {
            current = null;
        }
    }

    public static Optional<ListenerProbe> current() {
        return Optional.ofNullable(current);
    }
}
