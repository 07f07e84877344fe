package io.objectstreams.internal.capture;

import io.objectstreams.StreamsException;
import io.objectstreams.Streamed;
import io.objectstreams.Streamed.Capture;
import io.objectstreams.internal.trigger.TableMappings;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.Entity;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * Which path captures each {@code @Streamed} entity: the entity listener, or a trigger on its table. Exactly one
 * (G3): {@code @Streamed(capture = ...)} or the setting {@code streams.capture.<entity name>} ({@code listener} or
 * {@code trigger}) decides, and an entity whose annotation and setting disagree fails deployment naming both.
 */
@ApplicationScoped
public class CaptureModes {

    /** The prefix of the per-entity setting; the JPA entity name follows. */
    public static final String PREFIX = "streams.capture.";

    @Inject
    Config config;

    private final Map<Class<?>, Boolean> byTrigger = new ConcurrentHashMap<>();
    /** The models some trigger-captured part reports on ({@code TriggerCapture} says so at deployment). */
    private volatile Set<String> partsByTrigger = Set.of();

    /** Records the models that parts captured by trigger report on. */
    public void partsByTrigger(Set<String> models) {
        partsByTrigger = Set.copyOf(models);
    }

    /**
     * Whether a trigger captures parts of {@code model}'s subjects: a JPA transaction that creates or deletes one
     * drops those parts' trigger rows for it ({@link TransactionChanges}).
     */
    public boolean hasPartsByTrigger(String model) {
        return partsByTrigger.contains(model);
    }

    /** Whether a trigger captures {@code type}'s entity (a subclass a provider hands over counts as its entity). */
    public boolean byTrigger(Class<?> type) {
        return byTrigger.computeIfAbsent(entityClass(type),
                c -> byTrigger(c, key -> config.getOptionalValue(key, String.class)));
    }

    /** Whether a trigger captures {@code entityClass}, with {@code setting} reading a configuration key. */
    static boolean byTrigger(Class<?> entityClass, Function<String, Optional<String>> setting) {
        Streamed streamed = entityClass.getAnnotation(Streamed.class);
        Capture declared = streamed == null ? Capture.DEFAULT : streamed.capture();
        String key = PREFIX + TableMappings.entityName(entityClass);
        Optional<String> set = setting.apply(key).map(v -> v.trim().toLowerCase(Locale.ROOT)).filter(v -> !v.isEmpty());
        Capture configured = set.map(value -> switch (value) {
            case "listener" -> Capture.LISTENER;
            case "trigger" -> Capture.TRIGGER;
            default -> throw new StreamsException(LibraryErrorCode.INVALID_CONFIGURATION, key + "=" + set.get()
                    + " is not a capture mode; use listener or trigger");
        }).orElse(Capture.DEFAULT);
        if (declared != Capture.DEFAULT && configured != Capture.DEFAULT && declared != configured) {
            throw new StreamsException(LibraryErrorCode.INVALID_CONFIGURATION,
                    entityClass.getName() + " is configured for both"
                    + " capture paths: @Streamed(capture = " + declared + ") and " + key + "=" + set.get()
                    + ". Each entity has exactly one (a second would capture every write twice); remove one of them");
        }
        return (declared != Capture.DEFAULT ? declared : configured) == Capture.TRIGGER;
    }

    private static Class<?> entityClass(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(Entity.class)) {
                return c;
            }
        }
        return type;
    }
}
