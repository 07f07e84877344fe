package io.objectstreams.it.support.server;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Lookup;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.visibility.ModelKeys;
import io.objectstreams.web.visibility.Scope;
import io.objectstreams.web.visibility.Visibility;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code POST it/visibility-equivalence?seed=S&trials=N}: a property test of the fan-out's visibility for many
 * viewers at once (issue 27), against the real database. Each trial draws, from the seed, a world of documents
 * ({@link ItDoc}), a policy (keyed, or an arbitrary predicate that differs per viewer), a filter, up to 250 distinct
 * viewers (staff, customers, anonymous) and, for each, the pks of a batch (existing, missing, malformed). Between
 * drawing and deciding, some documents move to another owner or tenant, as writes in the batch do. It then asks
 * {@link Visibility#matching(VisibilityPolicy, Map, java.util.function.BiConsumer)} for all viewers at once, and
 * {@link Visibility#matching(VisibilityPolicy, Viewer, Filter, java.util.Collection)} for each viewer alone, and
 * answers every difference (none is the property), with the seed and trial that reproduce it.
 */
@Path("it/visibility-equivalence")
@Produces(MediaType.APPLICATION_JSON)
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class VisibilityEquivalenceResource {

    private static final List<String> NAMES = List.of("u1", "u2", "u3", "u4", "u5", "u6", "alice", "bob");
    private static final List<String> STATUSES = List.of("open", "shipped", "draft");
    private static final int DOCUMENTS = 60;
    private static final List<String> ALL_PKS = java.util.stream.IntStream.rangeClosed(1, DOCUMENTS + 5)
            .mapToObj(String::valueOf).toList();

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Inject
    Visibility visibility;

    @Inject
    @ConfigProperty(name = "streams.datasource")
    String dataSourceName;

    @POST
    public JsonObject run(@QueryParam("seed") long seed, @QueryParam("trials") int trials) throws Exception {
        JsonArrayBuilder differences = Json.createArrayBuilder();
        int found = 0;
        long scopes = 0;
        long visible = 0;
        int keyed = 0;
        for (int trial = 0; trial < trials; trial++) {
            Random random = new Random(seed * 1_000_003L + trial);
            writeWorld(random);
            boolean isKeyed = random.nextBoolean();
            keyed += isKeyed ? 1 : 0;
            VisibilityPolicy<ItDoc> policy = isKeyed ? new RandomKeyed(random.nextLong(), em)
                    : new RandomPredicate(random.nextLong(), em);
            Filter filter = randomFilter(random);
            Map<Scope, Set<String>> asked = new LinkedHashMap<>();
            int viewers = 1 + random.nextInt(250);
            for (int v = 0; v < viewers; v++) {
                asked.put(new Scope(randomViewer(random, v), "ItDoc", filter), randomPks(random));
            }
            moveSome(random);
            List<String> failures = new ArrayList<>();
            Map<Scope, Set<String>> together = visibility.matching(policy, asked,
                    (model, e) -> failures.add(model + ": " + e));
            // Members of keyed scopes, from one read of every row's keys (a reconnect storm's path), against each
            // viewer's own query over every pk.
            ModelKeys everyRow = visibility.modelKeys(policy, filter, 10_000).orElse(null);
            if (isKeyed != (everyRow != null) && found++ < 20) {
                differences.add("seed " + seed + " trial " + trial + ": keys of every row of a " + (isKeyed ? "" : "non-")
                        + "keyed policy read as " + everyRow);
            }
            // The same read bounded below the rows there are (issue 40 item 10) must refuse, never come back short:
            // subjects with nothing to join were read by a second query truncated on its own.
            Map<Integer, ModelKeys> reads = new LinkedHashMap<>();
            reads.put(0, everyRow);
            for (int bound : new int[] {DOCUMENTS / 4, DOCUMENTS / 2, DOCUMENTS * 3 / 4, DOCUMENTS - 1}) {
                reads.put(bound, visibility.modelKeys(policy, filter, bound).orElse(null));
            }
            for (Map.Entry<Integer, ModelKeys> read : reads.entrySet()) {
                for (Scope scope : read.getValue() == null ? Set.<Scope>of() : asked.keySet()) {
                    String difference = membersDiffer(read.getValue(), policy, scope, filter);
                    scopes++;
                    if (difference != null && found++ < 20) {
                        differences.add("seed " + seed + " trial " + trial + " (" + policy + ", " + filter
                                + (read.getKey() > 0 ? ", bounded at " + read.getKey() + " rows" : "") + "): " + difference);
                    }
                }
            }
            for (Map.Entry<Scope, Set<String>> entry : asked.entrySet()) {
                Scope scope = entry.getKey();
                Set<String> alone = visibility.matching(policy, scope.viewer(), filter, entry.getValue());
                Set<String> many = together.get(scope);
                scopes++;
                visible += alone.size();
                if (!alone.equals(many) && found++ < 20) {
                    differences.add("seed " + seed + " trial " + trial + " (" + policy + ", " + filter + ", "
                            + viewers + " viewers): " + scope.viewer() + " asked " + entry.getValue() + ": alone "
                            + alone + ", together " + many + (failures.isEmpty() ? "" : "; failures " + failures));
                }
            }
        }
        return Json.createObjectBuilder().add("trials", trials).add("keyed", keyed).add("scopes", scopes)
                .add("visible", visible).add("differences", found).add("first", differences).build();
    }

    private void writeWorld(Random random) throws NamingException, SQLException {
        try (Connection c = dataSource().getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM it_doc_reader");
                s.execute("DELETE FROM it_doc");
                s.execute("DELETE FROM it_folder");
                // Four folders, one without a tenant; a quarter of the documents in none (a nullable to-one path).
                s.execute("INSERT INTO it_folder (id, tenant) VALUES (1, 1), (2, 2), (3, NULL), (4, 4)");
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO it_doc (id, owner, tenant, status, amount, folder_id) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (int id = 1; id <= DOCUMENTS; id++) {
                    insert.setLong(1, id);
                    setOrNull(insert, 2, random.nextInt(8) == 0 ? null : NAMES.get(random.nextInt(NAMES.size())));
                    if (random.nextInt(6) == 0) {
                        insert.setNull(3, Types.BIGINT);
                    } else {
                        insert.setLong(3, 1 + random.nextInt(4));
                    }
                    setOrNull(insert, 4, random.nextInt(10) == 0 ? null : STATUSES.get(random.nextInt(STATUSES.size())));
                    insert.setInt(5, random.nextInt(100));
                    int folder = random.nextInt(5);
                    if (folder == 0) {
                        insert.setNull(6, Types.BIGINT);
                    } else {
                        insert.setLong(6, folder);
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO it_doc_reader (doc_id, reader) VALUES (?, ?)")) {
                for (int id = 1; id <= DOCUMENTS; id++) {
                    for (String reader : randomReaders(random)) {
                        insert.setLong(1, id);
                        insert.setString(2, reader);
                        insert.addBatch();
                    }
                }
                insert.executeBatch();
            }
        }
    }

    /** None to three readers, most often none or one. */
    private static Set<String> randomReaders(Random random) {
        Set<String> readers = new HashSet<>();
        for (int n = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : random.nextInt(2); n > 0; n--) {
            readers.add(NAMES.get(random.nextInt(NAMES.size())));
        }
        return readers;
    }

    /** How the members of a scope read from every row's keys differ from the viewer's own query; null if they do not. */
    private String membersDiffer(ModelKeys keys, VisibilityPolicy<ItDoc> policy, Scope scope, Filter filter) {
        Scope started = visibility.scope(policy, scope.viewer(), filter);
        Set<String> members = keys.members(started, Integer.MAX_VALUE);
        Set<String> own = visibility.matching(policy, scope.viewer(), filter, ALL_PKS);
        return own.equals(members == null ? Set.of() : members) ? null
                : "members of " + scope.viewer() + ": alone " + own + ", from every row's keys " + members;
    }

    /** The writes of the batch: documents that move to another owner or tenant, or go away, after the draw. */
    private void moveSome(Random random) throws NamingException, SQLException {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
            for (int i = 0; i < 5; i++) {
                long id = 1 + random.nextInt(DOCUMENTS);
                switch (random.nextInt(5)) {
                    case 0 -> s.executeUpdate("UPDATE it_doc SET owner = '" + NAMES.get(random.nextInt(NAMES.size()))
                            + "' WHERE id = " + id);
                    case 1 -> s.executeUpdate("UPDATE it_doc SET tenant = " + (1 + random.nextInt(4)) + " WHERE id = " + id);
                    // A reader given or taken away: the document moves between viewers through the join.
                    case 2 -> s.executeUpdate("INSERT INTO it_doc_reader (doc_id, reader) SELECT " + id + ", '"
                            + NAMES.get(random.nextInt(NAMES.size())) + "' FROM it_doc WHERE id = " + id);
                    case 3 -> s.executeUpdate("DELETE FROM it_doc_reader WHERE doc_id = " + id);
                    default -> {
                        s.executeUpdate("DELETE FROM it_doc_reader WHERE doc_id = " + id);
                        s.executeUpdate("DELETE FROM it_doc WHERE id = " + id);
                    }
                }
            }
        }
    }

    private DataSource dataSource() throws NamingException {
        return (DataSource) new InitialContext().lookup(dataSourceName);
    }

    private static void setOrNull(PreparedStatement insert, int index, String value) throws SQLException {
        if (value == null) {
            insert.setNull(index, Types.VARCHAR);
        } else {
            insert.setString(index, value);
        }
    }

    private static Viewer randomViewer(Random random, int index) {
        if (index == 0 && random.nextInt(4) == 0) {
            return Viewer.anonymous();
        }
        // Distinct viewers: a name of the world (or one that owns nothing), and maybe staff.
        String name = index < NAMES.size() ? NAMES.get(index) : "v" + index;
        return new Viewer(name, random.nextInt(10) == 0 ? Set.of("staff") : Set.of());
    }

    private static Set<String> randomPks(Random random) {
        Set<String> pks = new HashSet<>();
        int n = 1 + random.nextInt(12);
        for (int i = 0; i < n; i++) {
            pks.add(String.valueOf(1 + random.nextInt(DOCUMENTS + 5)));
        }
        if (random.nextInt(10) == 0) {
            pks.add("not-a-number");
        }
        return pks;
    }

    private static Filter randomFilter(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> new Filter(List.of(new Filter.Condition("status", Lookup.EXACT, "open")));
            case 1 -> new Filter(List.of(new Filter.Condition("amount", Lookup.GTE, random.nextInt(100))));
            case 2 -> new Filter(List.of(new Filter.Condition("status", Lookup.IN, List.of("open", "draft"))));
            default -> Filter.NONE;
        };
    }

    /** A keyed policy drawn from a seed: what documents are visible by, and which keys each viewer holds. */
    static final class RandomKeyed implements KeyedVisibilityPolicy<ItDoc> {
        private final long seed;
        private final EntityManager em;
        private final int by;
        private final boolean anonymous;

        RandomKeyed(long seed, EntityManager em) {
            this.seed = seed;
            this.em = em;
            Random random = new Random(seed);
            this.by = random.nextInt(6);
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
                // A path through a nullable to-one: an implicit inner join that documents in no folder fall out of.
                default -> List.of(root.get("folder").get("tenant"));
            };
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
                case 2 -> VisibilityKeys.of(owners, tenants);
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
            return "keyed by " + List.of("owner", "tenant", "owner, tenant", "readers (join)", "owner, readers (left join)",
                    "folder.tenant (a nullable to-one)").get(by) + (anonymous ? ", admits anonymous" : "");
        }
    }

    /** An arbitrary predicate drawn from a seed, different for each viewer: comparisons, NULLs, AND, OR, NOT. */
    static final class RandomPredicate implements VisibilityPolicy<ItDoc> {
        private final long seed;
        private final EntityManager em;

        RandomPredicate(long seed, EntityManager em) {
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
            int choice = random.nextInt(depth < 2 ? 10 : 7);
            return switch (choice) {
                case 0 -> viewer.isAnonymous() ? cb.isNull(root.get("owner")) : cb.equal(root.get("owner"), viewer.name());
                case 1 -> root.get("owner").in(NAMES.get(random.nextInt(NAMES.size())), NAMES.get(random.nextInt(NAMES.size())));
                case 2 -> root.get("tenant").in(1L + random.nextInt(4), 1L + random.nextInt(4));
                case 3 -> cb.greaterThan(root.get("amount"), random.nextInt(100));
                case 4 -> cb.equal(root.get("status"), STATUSES.get(random.nextInt(STATUSES.size())));
                case 5 -> viewer.hasRole("staff") ? cb.conjunction() : cb.isNull(root.get("tenant"));
                case 6 -> random.nextBoolean() ? cb.conjunction() : cb.disjunction();
                case 7 -> cb.and(predicate(random, viewer, cb, root, depth + 1), predicate(random, viewer, cb, root, depth + 1));
                case 8 -> cb.or(predicate(random, viewer, cb, root, depth + 1), predicate(random, viewer, cb, root, depth + 1));
                default -> cb.not(predicate(random, viewer, cb, root, depth + 1));
            };
        }

        @Override
        public String toString() {
            return "predicate " + seed;
        }
    }
}
