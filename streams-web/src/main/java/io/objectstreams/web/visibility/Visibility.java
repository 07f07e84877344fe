package io.objectstreams.web.visibility;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.internal.capture.ModelLabels;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The application's {@link VisibilityPolicy} beans by model label, and the one query per (viewer, model) that
 * says which of a set of subjects a viewer may read now (G8).
 *
 * <p>It lives in the web fragment, not in {@code streams-ejb}: in an EAR the policies are beans of the
 * application's WAR, which an EJB module's bean archive cannot see.
 */
@ApplicationScoped
public class Visibility {

    private static final Logger LOG = Logger.getLogger(Visibility.class.getName());

    @Inject
    @Any
    Instance<VisibilityPolicy<?>> beans;

    private volatile Map<String, VisibilityPolicy<?>> byModel;

    /** The policy of a model; empty for a model nobody may see (no policy registered). */
    public Optional<VisibilityPolicy<?>> policy(String model) {
        return Optional.ofNullable(policies().get(model));
    }

    /** Every role some policy consults, to be captured when a connection is authenticated. */
    public Set<String> declaredRoles() {
        Set<String> roles = new HashSet<>();
        policies().values().forEach(p -> roles.addAll(p.roles()));
        return roles;
    }

    /** The subset of {@code pks} of {@code model} that exist and that {@code viewer} may read, in one query. */
    public Set<String> visible(Viewer viewer, String model, Collection<String> pks) {
        Optional<VisibilityPolicy<?>> policy = policy(model);
        if (policy.isEmpty() || pks.isEmpty()) {
            return Set.of();
        }
        return query(policy.get(), viewer, pks);
    }

    private <E> Set<String> query(VisibilityPolicy<E> policy, Viewer viewer, Collection<String> pks) {
        EntityManager em = policy.entityManager();
        var entity = em.getMetamodel().entity(policy.entity());
        Class<?> idType = entity.getIdType().getJavaType();
        List<Object> ids = pks.stream().map(pk -> parseId(pk, idType)).filter(java.util.Objects::nonNull).toList();
        if (ids.isEmpty()) {
            return Set.of();
        }
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Object> query = cb.createQuery(Object.class);
        Root<E> root = query.from(policy.entity());
        jakarta.persistence.criteria.Path<Object> id = root.get(entity.getId(idType).getName());
        query.select(id).where(cb.and(id.in(ids), policy.visibleTo(viewer, cb, root)));
        Set<String> visible = new HashSet<>();
        for (Object found : em.createQuery(query).getResultList()) {
            visible.add(String.valueOf(found));
        }
        return visible;
    }

    /** A pk that cannot be an id of this entity names nothing, so nothing visible. */
    private static Object parseId(String pk, Class<?> type) {
        try {
            if (type == Long.class || type == long.class) {
                return Long.valueOf(pk);
            }
            if (type == Integer.class || type == int.class) {
                return Integer.valueOf(pk);
            }
            if (type == UUID.class) {
                return UUID.fromString(pk);
            }
            return type == String.class ? pk : null;
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    private Map<String, VisibilityPolicy<?>> policies() {
        Map<String, VisibilityPolicy<?>> map = byModel;
        if (map == null) {
            map = new HashMap<>();
            for (VisibilityPolicy<?> policy : beans) {
                String model = ModelLabels.of(policy.entity());
                if (map.putIfAbsent(model, policy) != null) {
                    throw new IllegalStateException("Two VisibilityPolicy beans govern " + model + "; keep one");
                }
            }
            LOG.info("Object Streams visibility policies: " + map.keySet());
            byModel = map;
        }
        return map;
    }
}
