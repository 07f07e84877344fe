package io.objectstreams.it.support.server;

import static io.objectstreams.it.support.server.DocWorld.NAMES;
import static io.objectstreams.it.support.server.DocWorld.STATUSES;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import java.util.Random;

/**
 * An arbitrary predicate of {@link ItDoc} drawn from a seed, one per viewer: comparisons, NULLs, a path through the
 * folder (which may be null), AND, OR, NOT.
 */
final class RandomPredicateDocs implements VisibilityPolicy<ItDoc> {

    private final long seed;
    private final EntityManager em;

    RandomPredicateDocs(long seed, EntityManager em) {
        this.seed = seed;
        this.em = em;
    }

    @Override
    public Class<ItDoc> entity() {
        return ItDoc.class;
    }

    @Override
    public EntityManager entityManager() {
        return em;
    }

    @Override
    public boolean admitsAnonymous() {
        return seed % 3 == 0;
    }

    @Override
    public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItDoc> root) {
        return predicate(new Random(seed ^ String.valueOf(viewer).hashCode()), viewer, cb, root, 0);
    }

    private Predicate predicate(Random random, Viewer viewer, CriteriaBuilder cb, Root<ItDoc> root, int depth) {
        int choice = random.nextInt(depth < 2 ? 11 : 8);
        return switch (choice) {
            case 0 -> viewer.isAnonymous() ? cb.isNull(root.get("owner"))
                    : cb.equal(root.get("owner"), viewer.name());
            case 1 -> root.get("owner").in(NAMES.get(random.nextInt(NAMES.size())),
                    NAMES.get(random.nextInt(NAMES.size())));
            case 2 -> root.get("tenant").in(1L + random.nextInt(4), 1L + random.nextInt(4));
            case 3 -> cb.greaterThan(root.get("amount"), random.nextInt(100));
            case 4 -> cb.equal(root.get("status"), STATUSES.get(random.nextInt(STATUSES.size())));
            case 5 -> viewer.hasRole("staff") ? cb.conjunction() : cb.isNull(root.get("tenant"));
            case 6 -> random.nextBoolean() ? cb.conjunction() : cb.disjunction();
            // Through a to-one link that may be null: an implicit inner join, for this viewer's predicate only (G8).
            case 7 -> cb.equal(root.get("folder").get("tenant"), 1L + random.nextInt(4));
            case 8 -> cb.and(predicate(random, viewer, cb, root, depth + 1),
                    predicate(random, viewer, cb, root, depth + 1));
            case 9 -> cb.or(predicate(random, viewer, cb, root, depth + 1),
                    predicate(random, viewer, cb, root, depth + 1));
            default -> cb.not(predicate(random, viewer, cb, root, depth + 1));
        };
    }

    @Override
    public String toString() {
        return "predicate " + seed;
    }
}
