package io.objectstreams.web.visibility;

import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import jakarta.persistence.EntityManagerFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@link Visibility} asks of a model's policy once and keeps, by model label: the persistence unit its queries run
 * in, and how its entity's pks are spelled. The policies are fixed once the application is deployed, and a policy
 * that is a session bean answers each call through its EJB proxy, a container invocation each time: asked per
 * replayed row, {@code entity()} was a third of Payara Micro's CPU in a reconnect storm of 15,000 clients.
 */
final class PolicyLookups {

    private final Map<String, EntityManagerFactory> factories = new ConcurrentHashMap<>();
    private final Map<String, SubjectId> subjectIds = new ConcurrentHashMap<>();

    /** The persistence unit of {@code policy}'s entity manager. */
    EntityManagerFactory factory(VisibilityPolicy<?> policy) {
        return factories.computeIfAbsent(StreamsFeed.modelLabel(policy.entity()),
                model -> policy.entityManager().getEntityManagerFactory());
    }

    /**
     * {@code pk} as the events of {@code model}, whose policy is {@code policy}, spell it
     * ({@link SubjectId#canonical}).
     */
    String canonicalPk(String model, VisibilityPolicy<?> policy, String pk) {
        return subjectIds.computeIfAbsent(model, m -> SubjectId.of(policy.entity())).canonical(pk);
    }
}
