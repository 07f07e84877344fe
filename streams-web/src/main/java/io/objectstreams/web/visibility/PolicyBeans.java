package io.objectstreams.web.visibility;

import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Finds the application's {@link VisibilityPolicy} beans, once, and maps them by model label.
 *
 * <p>A bean whose types include the interface is found by type. A session bean is not always such a bean: its bean
 * types are the interfaces it implements itself, so one that inherits the interface from a ready base class
 * ({@code AuthenticatedVisibility}) and does not repeat it has only its classes as types (a no-interface view). Those
 * are found by their bean class and referenced through it; the container's proxy of that class is a policy too.
 */
@ApplicationScoped
public class PolicyBeans {

    private static final Logger LOG = Logger.getLogger(PolicyBeans.class.getName());

    @Inject
    @Any
    Instance<VisibilityPolicy<?>> byType;

    @Inject
    BeanManager beanManager;

    private final List<CreationalContext<?>> contexts = new ArrayList<>();
    private volatile Map<String, VisibilityPolicy<?>> byModel;

    /** Every policy by the label of its model; two policies of one model are an error naming both. */
    Map<String, VisibilityPolicy<?>> byModel() {
        Map<String, VisibilityPolicy<?>> map = byModel;
        return map != null ? map : find();
    }

    private synchronized Map<String, VisibilityPolicy<?>> find() {
        Map<String, VisibilityPolicy<?>> map = byModel;
        if (map == null) {
            map = new TreeMap<>();
            for (VisibilityPolicy<?> policy : byType) {
                add(map, policy);
            }
            for (Bean<?> bean : untypedPolicies()) {
                add(map, reference(bean));
            }
            LOG.info("Object Streams visibility policies: " + map.keySet());
            byModel = map;
        }
        return map;
    }

    /**
     * The beans whose class is a policy but whose types do not say so, and that can be referenced by their class: a
     * session bean's no-interface view. A bean of such a class that cannot (a producer declared in it, a session bean
     * exposing only another interface, a bean {@code @Typed} to hide it) is not a policy the engine can call: it is
     * named in a warning and left out. Of an enabled alternative and the class it specializes or replaces, the
     * alternative is kept.
     */
    private List<Bean<?>> untypedPolicies() {
        List<Bean<?>> found = new ArrayList<>();
        for (Bean<?> bean : beanManager.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> beanClass = bean.getBeanClass();
            if (!VisibilityPolicy.class.isAssignableFrom(beanClass) || typedAsPolicy(bean)) {
                continue;
            }
            if (bean.getTypes().contains(beanClass)) {
                found.add(bean);
            } else {
                LOG.warning(() -> "Object Streams cannot use " + beanClass.getName() + " as a visibility policy: the"
                        + " bean implements VisibilityPolicy but exposes neither it nor its class as a bean type (a"
                        + " producer declared in it, another local interface, or @Typed); declare implements"
                        + " VisibilityPolicy<E> on the bean class, or expose its no-interface view");
            }
        }
        found.removeIf(bean -> found.stream().anyMatch(other -> other != bean && other.isAlternative()
                && bean.getBeanClass().isAssignableFrom(other.getBeanClass())));
        return found;
    }

    private static void add(Map<String, VisibilityPolicy<?>> map, VisibilityPolicy<?> policy) {
        String model = StreamsFeed.modelLabel(policy.entity());
        VisibilityPolicy<?> other = map.putIfAbsent(model, policy);
        if (other != null) {
            throw new IllegalStateException("Two VisibilityPolicy beans govern " + model + ": " + beanName(other)
                    + " and " + beanName(policy) + "; keep one");
        }
    }

    /** The application's class behind a bean reference (a container proxy subclasses it, or implements its view). */
    private static String beanName(VisibilityPolicy<?> policy) {
        Class<?> type = policy.getClass();
        while (type.isSynthetic() || type.getName().contains("$Proxy$") || type.getName().contains("$$")) {
            type = type.getSuperclass();
        }
        return type.getName();
    }

    /** Whether {@code bean} has the policy interface (or one extending it) among its types: found by type already. */
    private static boolean typedAsPolicy(Bean<?> bean) {
        for (Type type : bean.getTypes()) {
            Type raw = type instanceof ParameterizedType parameterized ? parameterized.getRawType() : type;
            if (raw instanceof Class<?> rawClass && rawClass.isInterface()
                    && VisibilityPolicy.class.isAssignableFrom(rawClass)) {
                return true;
            }
        }
        return false;
    }

    private VisibilityPolicy<?> reference(Bean<?> bean) {
        CreationalContext<?> context = beanManager.createCreationalContext(bean);
        contexts.add(context);
        return (VisibilityPolicy<?>) beanManager.getReference(bean, bean.getBeanClass(), context);
    }

    /** Releases what the references made (a stateful policy's instance). */
    @PreDestroy
    synchronized void release() {
        contexts.forEach(CreationalContext::release);
        contexts.clear();
    }
}
