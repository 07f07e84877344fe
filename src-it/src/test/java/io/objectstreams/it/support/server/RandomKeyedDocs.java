package io.objectstreams.it.support.server;

import static io.objectstreams.it.support.server.DocWorld.NAMES;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Root;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A keyed policy of {@link ItDoc} drawn from a seed: what documents are visible by, and which keys each viewer holds;
 * and, for the visibility equivalence test's own answer, the rows of keys a document has under it by the documented
 * rule ({@link #rowsOf}).
 */
final class RandomKeyedDocs implements KeyedVisibilityPolicy<ItDoc> {

    private static final List<String> SHAPES = List.of("owner", "tenant", "owner, tenant", "readers (join)",
            "owner, readers (left join)", "folder.tenant (nullable link)", "owner, folder.tenant (nullable link)");

    private final long seed;
    private final EntityManager em;
    private final int by;
    private final boolean anonymous;

    RandomKeyedDocs(long seed, EntityManager em) {
        this.seed = seed;
        this.em = em;
        Random random = new Random(seed);
        this.by = random.nextInt(SHAPES.size());
        this.anonymous = random.nextInt(4) == 0;
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
        return anonymous;
    }

    @Override
    public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<ItDoc> root) {
        return switch (by) {
            case 0 -> List.of(root.get("owner"));
            case 1 -> List.of(root.get("tenant"));
            case 2 -> List.of(root.get("owner"), root.get("tenant"));
            // Keys through a join: one row per reader, none for a document with no reader (an inner join),
            // or the owner beside them (a left join, so that a document with no reader is still its owner's).
            case 3 -> List.of(root.join("readers"));
            case 4 -> List.of(root.get("owner"), root.join("readers", JoinType.LEFT));
            // Keys through a to-one link that may be null: a document in no folder has a NULL tenant there, and
            // stays its owner's and visible to holders of every key.
            case 5 -> List.of(root.get("folder").get("tenant"));
            default -> List.of(root.get("owner"), root.get("folder").get("tenant"));
        };
    }

    /**
     * The rows of keys {@code doc} has under this policy by the documented rule, computed here rather than by the
     * engine: {@code null} for no document, no row for a document the inner join of its readers drops.
     */
    List<List<String>> rowsOf(DocWorld.Doc doc) {
        if (doc == null) {
            return null;
        }
        String owner = doc.owner();
        String tenant = text(doc.tenant());
        String folderTenant = text(doc.folderTenant());
        List<List<String>> rows = new ArrayList<>();
        switch (by) {
            case 0 -> rows.add(Arrays.asList(owner));
            case 1 -> rows.add(Arrays.asList(tenant));
            case 2 -> rows.add(Arrays.asList(owner, tenant));
            case 3 -> doc.readers().forEach(reader -> rows.add(List.of(reader)));
            case 4 -> {
                doc.readers().forEach(reader -> rows.add(Arrays.asList(owner, reader)));
                if (rows.isEmpty()) {
                    rows.add(Arrays.asList(owner, null));
                }
            }
            case 5 -> rows.add(Arrays.asList(folderTenant));
            default -> rows.add(Arrays.asList(owner, folderTenant));
        }
        return rows;
    }

    private static String text(Long value) {
        return value == null ? null : value.toString();
    }

    @Override
    public VisibilityKeys keysOf(Viewer viewer) {
        Random random = new Random(seed ^ String.valueOf(viewer).hashCode());
        if (viewer.hasRole("staff")) {
            return VisibilityKeys.all();
        }
        if (random.nextInt(8) == 0) {
            return VisibilityKeys.none();
        }
        Set<String> owners = new HashSet<>();
        if (!viewer.isAnonymous()) {
            owners.add(viewer.name());
        }
        if (random.nextBoolean()) {
            owners.add(NAMES.get(random.nextInt(NAMES.size())));
        }
        Set<Object> tenants = new HashSet<>();
        for (int t = 1; t <= 4; t++) {
            if (random.nextInt(3) == 0) {
                tenants.add((long) t);
            }
        }
        // Spellings that are no tenant: "02" is not "2", and text is no number; they must name nothing.
        if (random.nextInt(5) == 0) {
            tenants.add("02");
            tenants.add("x");
        }
        return switch (by) {
            case 0, 3 -> VisibilityKeys.of(owners);
            case 1, 5 -> VisibilityKeys.of(tenants);
            case 2, 6 -> VisibilityKeys.of(owners, tenants);
            default -> VisibilityKeys.of(owners, readerKeys(random, viewer));
        };
    }

    /** The readers a viewer may read for: its own name, another's, or nobody's. */
    private static Set<Object> readerKeys(Random random, Viewer viewer) {
        Set<Object> readers = new HashSet<>();
        if (!viewer.isAnonymous() && random.nextInt(3) > 0) {
            readers.add(viewer.name());
        }
        if (random.nextInt(3) == 0) {
            readers.add(NAMES.get(random.nextInt(NAMES.size())));
        }
        return readers;
    }

    @Override
    public String toString() {
        return "keyed by " + SHAPES.get(by) + (anonymous ? ", admits anonymous" : "");
    }
}
