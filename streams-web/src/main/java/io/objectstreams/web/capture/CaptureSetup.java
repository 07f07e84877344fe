package io.objectstreams.web.capture;

import io.objectstreams.Streamed;
import io.objectstreams.StreamsException;
import io.objectstreams.capture.StreamsEntityListener;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.metamodel.EntityType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether a persistence unit captures its {@code @Streamed} entities: Object Streams' entity listener reaches
 * them only through the mapping file {@code META-INF/object-streams-orm.xml}, and a unit that does not list it
 * (or an entity that excludes default listeners) would commit every change with no outbox row and no error.
 *
 * <p>JPA has no portable way to list an entity's listeners, so this asks the provider, through reflection (the
 * module is compiled against neither): EclipseLink's descriptor event manager, or Hibernate's callback registry.
 * Another provider cannot be asked: its units are named in a warning, at deployment and in readiness, since a missing
 * mapping-file line there would lose every change silently (G16).
 */
final class CaptureSetup {

    private static final Logger LOG = Logger.getLogger(CaptureSetup.class.getName());

    /** Every JPA callback {@link StreamsEntityListener} declares, as Hibernate names them. */
    private static final List<String> HIBERNATE_CALLBACKS = List.of("POST_LOAD", "POST_PERSIST", "PRE_UPDATE",
            "POST_REMOVE");

    private CaptureSetup() {
    }

    /**
     * The units' {@code @Streamed} entities, and one warning per unit whose provider cannot be asked.
     *
     * @param streamed  every {@code @Streamed} entity of the units
     * @param unchecked what could not be checked, in words an operator can act on
     */
    record Checked(Set<Class<?>> streamed, List<String> unchecked) {
    }

    /**
     * Fails with {@code capture_not_configured} when some {@code @Streamed} entity of the units is not captured;
     * otherwise returns their entities and what could not be checked.
     */
    static Checked check(Collection<EntityManagerFactory> units) {
        List<String> unchecked = new ArrayList<>();
        for (EntityManagerFactory unit : units) {
            if (!require(unit)) {
                String warning = "the persistence unit of " + names(unit) + " runs on a JPA provider Object Streams"
                        + " cannot ask for its entity listeners (" + unit.getClass().getName() + "), so whether their"
                        + " changes are captured is not checked: make sure its persistence.xml lists"
                        + " <mapping-file>META-INF/object-streams-orm.xml</mapping-file> (docs/capture.md)";
                LOG.warning("Object Streams: " + warning);
                unchecked.add(warning);
            }
        }
        return new Checked(streamed(units), List.copyOf(unchecked));
    }

    /** The unit's {@code @Streamed} entities' simple names, for a message. */
    private static String names(EntityManagerFactory unit) {
        return streamed(List.of(unit)).stream().map(Class::getSimpleName).sorted().toList().toString();
    }

    /**
     * Fails with {@code capture_not_configured} when some {@code @Streamed} entity of {@code unit} is not captured;
     * returns false when the unit's provider cannot be asked.
     */
    static boolean require(EntityManagerFactory unit) {
        if (provider(unit).isEmpty()) {
            return false;
        }
        List<String> missed = uncaptured(unit);
        if (!missed.isEmpty()) {
            throw new StreamsException(LibraryErrorCode.CAPTURE_NOT_CONFIGURED,
                    "Object Streams' entity listener does not reach the"
                    + " @Streamed entities " + missed + ", so their changes would commit without outbox rows. Add"
                    + " <mapping-file>META-INF/object-streams-orm.xml</mapping-file> to their persistence unit in"
                    + " persistence.xml, and do not put @ExcludeDefaultListeners on them (docs/capture.md)");
        }
        return true;
    }

    /** EclipseLink's session or Hibernate's session factory behind {@code unit}; empty for another provider. */
    private static Optional<Object> provider(EntityManagerFactory unit) {
        Optional<Object> eclipseLink = unwrap(unit, "org.eclipse.persistence.sessions.Session");
        return eclipseLink.isPresent() ? eclipseLink
                : unwrap(unit, "org.hibernate.engine.spi.SessionFactoryImplementor");
    }

    /** The {@code @Streamed} entities of the units. */
    static Set<Class<?>> streamed(Collection<EntityManagerFactory> units) {
        Set<Class<?>> streamed = new LinkedHashSet<>();
        for (EntityManagerFactory unit : units) {
            for (EntityType<?> entity : unit.getMetamodel().getEntities()) {
                Class<?> type = entity.getJavaType();
                if (type != null && type.isAnnotationPresent(Streamed.class)) {
                    streamed.add(type);
                }
            }
        }
        return streamed;
    }

    /** The {@code @Streamed} entities of {@code unit} that the listener does not reach; empty if it cannot be told. */
    static List<String> uncaptured(EntityManagerFactory unit) {
        // Providers may finish deploying a unit on its first entity manager; its descriptors are complete after it.
        unit.createEntityManager().close();
        List<String> missed = new ArrayList<>();
        Optional<Object> eclipseLink = unwrap(unit, "org.eclipse.persistence.sessions.Session");
        Optional<Object> hibernate = eclipseLink.isPresent() ? Optional.empty()
                : unwrap(unit, "org.hibernate.engine.spi.SessionFactoryImplementor");
        if (eclipseLink.isEmpty() && hibernate.isEmpty()) {
            return missed; // check names the unit in a warning
        }
        for (EntityType<?> entity : unit.getMetamodel().getEntities()) {
            Class<?> type = entity.getJavaType();
            if (type == null || type.getAnnotation(Streamed.class) == null) {
                continue;
            }
            try {
                boolean captured = eclipseLink.isPresent() ? eclipseLinkListens(eclipseLink.get(), type)
                        : hibernateListens(hibernate.get(), type);
                if (!captured) {
                    missed.add(type.getName());
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(Level.FINE, "Cannot tell whether " + type.getName() + " is captured; not checked", e);
            }
        }
        return missed;
    }

    private static boolean eclipseLinkListens(Object session, Class<?> type) throws ReflectiveOperationException {
        Object descriptor = call(session, "getDescriptor", new Class<?>[] {Class.class}, type);
        Object events = call(descriptor, "getEventManager", new Class<?>[0]);
        if ((Boolean) call(events, "excludeDefaultListeners", new Class<?>[0])) {
            return false;
        }
        for (Object listener : (List<?>) call(events, "getDefaultEventListeners", new Class<?>[0])) {
            Method listenerClass = findMethod(listener.getClass(), "getListenerClass");
            if (listenerClass != null
                    && StreamsEntityListener.class.getName()
                            .equals(((Class<?>) listenerClass.invoke(listener)).getName())) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean hibernateListens(Object sessionFactory, Class<?> type) throws ReflectiveOperationException {
        Object registry = call(call(sessionFactory, "getEventEngine", new Class<?>[0]), "getCallbackRegistry",
                new Class<?>[0]);
        Class<? extends Enum> callbackType = (Class<? extends Enum>) Class.forName(
                "org.hibernate.jpa.event.spi.CallbackType", false, sessionFactory.getClass().getClassLoader());
        Method registered = findMethod(registry.getClass(), "hasRegisteredCallbacks");
        for (String name : HIBERNATE_CALLBACKS) {
            if (!(Boolean) registered.invoke(registry, type, Enum.valueOf(callbackType, name))) {
                return false;
            }
        }
        return true;
    }

    /** The provider's own object behind {@code unit}, if the provider is the one that defines {@code className}. */
    private static Optional<Object> unwrap(EntityManagerFactory unit, String className) {
        for (ClassLoader loader : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                unit.getClass().getClassLoader()}) {
            try {
                return Optional.of(unit.unwrap(Class.forName(className, false, loader)));
            } catch (ClassNotFoundException | RuntimeException notThisProvider) {
                // try the next loader, or another provider
            }
        }
        return Optional.empty();
    }

    private static Object call(Object target, String name, Class<?>[] types, Object... args)
            throws ReflectiveOperationException {
        Method method = findMethod(target.getClass(), name, types);
        if (method == null) {
            throw new NoSuchMethodException(target.getClass().getName() + "." + name);
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw e;
        }
    }

    /** A public method by name (and parameter types, when given), found through the public interfaces if need be. */
    private static Method findMethod(Class<?> type, String name, Class<?>... types) {
        for (Method method : type.getMethods()) {
            if (method.getName().equals(name) && (types.length == 0 ? true
                    : Arrays.equals(method.getParameterTypes(), types))) {
                try {
                    method.setAccessible(true);
                } catch (RuntimeException inaccessible) {
                    // the public method of a public interface needs no access override
                }
                return method;
            }
        }
        return null;
    }
}
