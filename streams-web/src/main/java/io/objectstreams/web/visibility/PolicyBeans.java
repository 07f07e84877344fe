package io.objectstreams.web.visibility;

import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;
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

    private volatile Map<String, VisibilityPolicy<?>> byModel;

    /** Every policy by the label of its model; two policies of one model are an error. */
    Map<String, VisibilityPolicy<?>> byModel() {
        Map<String, VisibilityPolicy<?>> map = byModel;
        if (map == null) {
            map = new HashMap<>();
            for (VisibilityPolicy<?> policy : byType) {
                add(map, policy);
            }
            for (Bean<?> bean : beanManager.getBeans(Object.class, Any.Literal.INSTANCE)) {
                if (VisibilityPolicy.class.isAssignableFrom(bean.getBeanClass()) && !typedAsPolicy(bean)) {
                    add(map, reference(bean));
                }
            }
            LOG.info("Object Streams visibility policies: " + map.keySet());
            byModel = map;
        }
        return map;
    }

    private static void add(Map<String, VisibilityPolicy<?>> map, VisibilityPolicy<?> policy) {
        String model = StreamsFeed.modelLabel(policy.entity());
        if (map.putIfAbsent(model, policy) != null) {
            throw new IllegalStateException("Two VisibilityPolicy beans govern " + model + "; keep one");
        }
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
        return (VisibilityPolicy<?>) beanManager.getReference(bean, bean.getBeanClass(), context);
    }
}
