package io.objectstreams.internal.health;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Where the parts of one application that know a figure register the source of their report, by key, so the
 * health checks and the admin status can read it: the listener ({@link #LISTENER}, in {@code streams-ejb}) and
 * the subscription engine ({@link #SESSIONS}, in {@code streams-web}).
 *
 * <p>Why a class-level instance instead of a CDI bean: in an EAR the health checks must sit in {@code lib/}
 * (WildFly registers none from sub-deployments, WFLY-12835), and a {@code lib/} bean cannot see the EJB module's
 * classes. This class is in {@code streams-api}, which every module of the application sees and which is loaded
 * once per application (EAR {@code lib/} or {@code WEB-INF/lib}), so {@link #application()} is one registry per
 * application on every server. Tests make their own.
 */
public final class HealthRegistry {

    /** The listener's state and the outbox backlog. */
    public static final Key<ListenerReport> LISTENER = new Key<>("listener", ListenerReport.class);

    /** This instance's client connections, on every transport. */
    public static final Key<SessionReport> SESSIONS = new Key<>("sessions", SessionReport.class);

    /** What this instance's transports did since start, for metrics ({@code streams-web}). */
    public static final Key<TransportCounts> TRANSPORTS = new Key<>("transports", TransportCounts.class);

    /** Trigger capture's check of its tables ({@code streams-ejb}). */
    public static final Key<CaptureReport> CAPTURE = new Key<>("capture", CaptureReport.class);

    private static final HealthRegistry APPLICATION = new HealthRegistry();

    /** Names one kind of report and its type. */
    public record Key<T>(String name, Class<T> type) {
        public Key {
            Objects.requireNonNull(name);
            Objects.requireNonNull(type);
        }
    }

    private final ConcurrentMap<Key<?>, Supplier<?>> sources = new ConcurrentHashMap<>();

    /** Only {@link #application()}'s, and tests'. */
    HealthRegistry() {
    }

    /** The registry of this application. */
    public static HealthRegistry application() {
        return APPLICATION;
    }

    /** Makes {@code source} the one that answers for {@code key}, in place of any earlier one. */
    public <T> void register(Key<T> key, Supplier<? extends T> source) {
        sources.put(key, Objects.requireNonNull(source));
    }

    /** Forgets {@code source} if it still answers for {@code key}; a source registered after it stays. */
    public <T> void unregister(Key<T> key, Supplier<? extends T> source) {
        sources.remove(key, source);
    }

    /** A fresh report from the source registered for {@code key}, or empty while none is. */
    public <T> Optional<T> report(Key<T> key) {
        Supplier<?> source = sources.get(key);
        return source == null ? Optional.empty() : Optional.ofNullable(key.type().cast(source.get()));
    }
}
