package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.Viewer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts this instance's connections, in all, per authenticated principal and anonymous together, and refuses one
 * past {@code streams.connections.max}, {@code streams.connections.max-per-principal} or
 * {@code streams.connections.max-anonymous} (G15). A refused connection
 * holds nothing; an entry per principal exists only while the principal is connected, so nothing here grows with
 * the number of users.
 */
final class Admission {

    private final int maxConnections;
    private final int maxPerPrincipal;
    private final int maxAnonymous;
    private final AtomicInteger anonymous = new AtomicInteger();
    /** Connections admitted and not yet released; the registry's sessions may briefly lag behind it. */
    private final AtomicInteger connections = new AtomicInteger();
    private final Map<String, Integer> byPrincipal = new ConcurrentHashMap<>();

    Admission(int maxConnections, int maxPerPrincipal, int maxAnonymous) {
        this.maxConnections = maxConnections;
        this.maxPerPrincipal = maxPerPrincipal;
        this.maxAnonymous = maxAnonymous;
    }

    /** Takes a slot for a new connection of {@code viewer}, or refuses it ({@code connection_limit_exceeded}). */
    void admit(Viewer viewer) throws ProtocolError {
        if (connections.incrementAndGet() > maxConnections) {
            connections.decrementAndGet();
            throw new ProtocolError(ErrorCode.CONNECTION_LIMIT_EXCEEDED, "This server holds its maximum of "
                    + maxConnections + " connections (streams.connections.max); try again later");
        }
        if (viewer.isAnonymous()) {
            if (anonymous.incrementAndGet() > maxAnonymous) {
                anonymous.decrementAndGet();
                connections.decrementAndGet();
                throw new ProtocolError(ErrorCode.CONNECTION_LIMIT_EXCEEDED, "This server holds its maximum of "
                        + maxAnonymous + " anonymous connections (streams.connections.max-anonymous); authenticate,"
                        + " or try again later");
            }
            return;
        }
        boolean[] full = {false};
        byPrincipal.compute(viewer.name(), (name, held) -> {
            int count = held == null ? 0 : held;
            if (count >= maxPerPrincipal) {
                full[0] = true;
                return held;
            }
            return count + 1;
        });
        if (full[0]) {
            connections.decrementAndGet();
            throw new ProtocolError(ErrorCode.CONNECTION_LIMIT_EXCEEDED, "You already hold " + maxPerPrincipal
                    + " connections to this server (streams.connections.max-per-principal); close one first");
        }
    }

    /** Gives back the slot of a connection of {@code viewer} that ended. */
    void release(Viewer viewer) {
        connections.decrementAndGet();
        if (viewer.isAnonymous()) {
            anonymous.decrementAndGet();
        } else {
            byPrincipal.computeIfPresent(viewer.name(), (name, held) -> held <= 1 ? null : held - 1);
        }
    }
}
