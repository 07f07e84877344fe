package io.objectstreams.it.support.server;

import static io.objectstreams.it.support.server.DocWorld.DOCUMENTS;
import static io.objectstreams.it.support.server.DocWorld.NAMES;

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
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
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
 * ({@link DocWorld}), a policy (keyed, {@link RandomKeyedDocs}, some through a folder that may be null; or an arbitrary
 * predicate that differs per viewer, {@link RandomPredicateDocs}), a filter, up to 250 distinct viewers (staff,
 * customers, anonymous) and, for each, the pks of a batch (existing, missing, malformed). Between drawing and
 * deciding, some documents move to another owner, tenant or folder, as writes in the batch do. It then asks
 * {@link Visibility#matching(VisibilityPolicy, Map, java.util.function.BiConsumer)} for all viewers at once, and
 * {@link Visibility#matching(VisibilityPolicy, Viewer, Filter, java.util.Collection)} for each viewer alone, and
 * under a keyed policy also works out each viewer's answer from the documented rule itself, over the world read back
 * with plain SQL; it answers every difference (none is the property), with the seed and trial that reproduce it.
 */
@Path("it/visibility-equivalence")
@Produces(MediaType.APPLICATION_JSON)
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class VisibilityEquivalenceResource {

    private static final List<String> ALL_PKS = java.util.stream.IntStream.rangeClosed(1, DOCUMENTS + 5)
            .mapToObj(String::valueOf).toList();

    /**
     * A {@code members} list past PostgreSQL's 32,767 bind parameters, as a client may send where
     * {@code streams.subscriptions.max-member-pks} allows it: asked for one viewer of every tenth trial.
     */
    private static final Set<String> MANY_PKS = java.util.stream.IntStream.rangeClosed(1, 70_000)
            .mapToObj(String::valueOf).collect(java.util.stream.Collectors.toUnmodifiableSet());

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @Inject
    Visibility visibility;

    @Inject
    @ConfigProperty(name = "streams.datasource")
    String dataSourceName;

    @POST
    public JsonObject run(@QueryParam("seed") long seed, @QueryParam("trials") int trials) throws Exception {
        Tally tally = new Tally();
        for (int trial = 0; trial < trials; trial++) {
            Random random = new Random(seed * 1_000_003L + trial);
            DocWorld.write(dataSource(), random);
            boolean isKeyed = random.nextBoolean();
            tally.keyed += isKeyed ? 1 : 0;
            VisibilityPolicy<ItDoc> policy = isKeyed ? new RandomKeyedDocs(random.nextLong(), em)
                    : new RandomPredicateDocs(random.nextLong(), em);
            Filter filter = randomFilter(random);
            Map<Scope, Set<String>> asked = new LinkedHashMap<>();
            int viewers = 1 + random.nextInt(250);
            for (int v = 0; v < viewers; v++) {
                asked.put(new Scope(randomViewer(random, v), "ItDoc", filter),
                        v == 0 && trial % 10 == 0 ? MANY_PKS : randomPks(random));
            }
            DocWorld.move(dataSource(), random);
            // The rows one read of every row's keys may hold: most often all of them, else fewer than some worlds need.
            int bound = random.nextBoolean() ? 10_000 : 10 + random.nextInt(90);
            String where = "seed " + seed + " trial " + trial + " (" + policy + ", " + filter + ", " + viewers
                    + " viewers, every row's keys up to " + bound + " rows)";
            trial(where, policy, filter, asked, bound, tally);
        }
        return Json.createObjectBuilder().add("trials", trials).add("keyed", tally.keyed).add("scopes", tally.scopes)
                .add("visible", tally.visible).add("differences", tally.found).add("first", tally.differences).build();
    }

    /** What one trial found, added up. */
    private static final class Tally {
        final JsonArrayBuilder differences = Json.createArrayBuilder();
        int found;
        long scopes;
        long visible;
        int keyed;

        void differ(String difference) {
            if (found++ < 20) {
                differences.add(difference);
            }
        }
    }

    private void trial(String where, VisibilityPolicy<ItDoc> policy, Filter filter, Map<Scope, Set<String>> asked,
                       int bound, Tally tally) throws NamingException, java.sql.SQLException {
        List<String> failures = new ArrayList<>();
        Map<Scope, Set<String>> together = visibility.matching(policy, asked,
                (model, e) -> failures.add(model + ": " + e));
        Map<String, DocWorld.Doc> now = policy instanceof RandomKeyedDocs ? DocWorld.read(dataSource()) : Map.of();
        everyRow(where, policy, filter, asked.keySet(), bound, now, tally);
        for (Map.Entry<Scope, Set<String>> entry : asked.entrySet()) {
            Scope scope = entry.getKey();
            Set<String> alone = visibility.matching(policy, scope.viewer(), filter, entry.getValue());
            Set<String> many = together.get(scope);
            tally.scopes++;
            tally.visible += alone.size();
            if (!alone.equals(many)) {
                tally.differ(where + ": " + scope.viewer() + " asked " + describe(entry.getValue()) + ": alone " + alone
                        + ", together " + many + (failures.isEmpty() ? "" : "; failures " + failures));
            }
            if (policy instanceof RandomKeyedDocs keyed) {
                Set<String> rule = byTheRule(keyed, scope.viewer(), filter, entry.getValue(), now);
                if (!alone.equals(rule)) {
                    tally.differ(where + ": " + scope.viewer() + " asked " + describe(entry.getValue()) + ": alone " + alone
                            + ", by the rule " + rule);
                }
            }
        }
    }

    /**
     * Members of keyed scopes from one read of every row's keys (a reconnect storm's path), against each viewer's own
     * query over every pk. The read is kept only when its rows fit the bound, a subject with no row of keys counting
     * as one (G10: a read cut short would start staff's subscriptions without some subjects, and their deletes).
     */
    private void everyRow(String where, VisibilityPolicy<ItDoc> policy, Filter filter, Set<Scope> scopes, int bound,
                          Map<String, DocWorld.Doc> now, Tally tally) {
        ModelKeys everyRow = visibility.modelKeys(policy, filter, bound).orElse(null);
        boolean fits = false;
        if (policy instanceof RandomKeyedDocs keyed) {
            long held = 0;
            for (String pk : visibility.matching(new Everything(em), Viewer.anonymous(), filter, ALL_PKS)) {
                held += Math.max(1, keyed.rowsOf(now.get(pk)).size());
            }
            fits = held <= bound;
        }
        if (fits != (everyRow != null)) {
            tally.differ(where + ": keys of every row read as " + everyRow + (fits ? ", expected them" : ", expected"
                    + " none: more rows than the bound"));
        }
        for (Scope scope : everyRow != null ? scopes : Set.<Scope>of()) {
            Set<String> members = everyRow.members(visibility.scope(policy, scope.viewer(), filter), Integer.MAX_VALUE);
            Set<String> own = visibility.matching(policy, scope.viewer(), filter, ALL_PKS);
            tally.scopes++;
            if (!own.equals(members == null ? Set.of() : members)) {
                tally.differ(where + ": members of " + scope.viewer() + ": alone " + own + ", from every row's keys "
                        + members);
            }
        }
    }

    /**
     * A keyed policy's answer worked out from its rule, not by the engine: of the pks that exist and match the filter,
     * those with a row of keys some key of the viewer's names (any row, for a holder of every key).
     */
    private Set<String> byTheRule(RandomKeyedDocs policy, Viewer viewer, Filter filter, Set<String> pks,
                                  Map<String, DocWorld.Doc> now) {
        if (viewer.isAnonymous() && !policy.admitsAnonymous()) {
            return Set.of();
        }
        VisibilityKeys keys = policy.keysOf(viewer);
        Set<String> visible = new HashSet<>();
        for (String pk : visibility.matching(new Everything(em), viewer, filter, pks)) {
            if (keys.admitsAny(policy.rowsOf(now.get(pk)))) {
                visible.add(pk);
            }
        }
        return visible;
    }

    /** Every document visible to everyone: what exists and matches a filter, for the rule's own answer. */
    private record Everything(EntityManager entityManager) implements VisibilityPolicy<ItDoc> {
        @Override
        public Class<ItDoc> entity() {
            return ItDoc.class;
        }

        @Override
        public boolean admitsAnonymous() {
            return true;
        }

        @Override
        public Predicate visibleTo(Viewer viewer, CriteriaBuilder cb, Root<ItDoc> root) {
            return cb.conjunction();
        }
    }

    private DataSource dataSource() throws NamingException {
        return (DataSource) new InitialContext().lookup(dataSourceName);
    }

    private static Viewer randomViewer(Random random, int index) {
        if (index == 0 && random.nextInt(4) == 0) {
            return Viewer.anonymous();
        }
        // Distinct viewers: a name of the world (or one that owns nothing), and maybe staff.
        String name = index < NAMES.size() ? NAMES.get(index) : "v" + index;
        return new Viewer(name, random.nextInt(10) == 0 ? Set.of("staff") : Set.of());
    }

    private static String describe(Set<String> pks) {
        return pks.size() > 20 ? pks.size() + " pks" : pks.toString();
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
}
