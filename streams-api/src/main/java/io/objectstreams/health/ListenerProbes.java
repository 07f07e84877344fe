package io.objectstreams.health;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where the listener, and the transport with its sessions, register themselves so the health checks can find them.
 *
 * <p>Why a static slot instead of CDI: WildFly registers MicroProfile Health checks only from an EAR's
 * {@code lib/} jars, and a bean there cannot see the EJB module that holds the listener. This class lives in
 * {@code streams-api}, which every module of the application sees (EAR {@code lib/} or {@code WEB-INF/lib}),
 * so it is one slot per application.
 */
public final class ListenerProbes {

    private static volatile ListenerProbe current;
    private static volatile Supplier<SessionReport> sessions;

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

    /** Registers the source of the connected-sessions figures (the WebSocket transport). */
    public static void registerSessions(Supplier<SessionReport> report) {
        sessions = report;
    }

    public static void unregisterSessions(Supplier<SessionReport> report) {
        if (sessions == report) {
            sessions = null;
        }
    }

    public static Optional<SessionReport> sessions() {
        Supplier<SessionReport> report = sessions;
        return report == null ? Optional.empty() : Optional.of(report.get());
    }
}
