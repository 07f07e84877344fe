package io.objectstreams.web.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.KeyedVisibilityPolicy;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.web.LoggedRecords;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.visibility.CriteriaStandIn.Provider;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The key rows of a keyed policy, read over a stand-in of each provider's Criteria API ({@link CriteriaStandIn}):
 * a subject whose to-one link is null keeps its row (G8), the one read of every row's keys a reconnect storm
 * shares is either whole or not kept (G10), and a UUID key's column that holds no UUID is said once per model.
 */
class KeyRowsTest {

    private static final Map<String, Class<?>> TYPES = Map.of("id", Long.class, "owner", String.class,
            "folder", Folder.class, "tenant", Long.class, "readers", String[].class);
    private static final Viewer STAFF = new Viewer("staff", Set.of("staff"));
    private static final Viewer ANN = new Viewer("ann", Set.of());

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aSubjectWhoseLinkIsNullIsStillAMemberOfAHolderOfEveryKeyAtTheNextBatch(Provider provider) {
        CriteriaStandIn db = new CriteriaStandIn(provider, TYPES, folderWorld());
        Policy policy = new Policy(db.entityManager(), root -> List.of(root.get("folder").get("tenant")));
        Scope staff = scope(STAFF, VisibilityKeys.all());
        Scope tenant7 = scope(ANN, VisibilityKeys.of(Set.of(7L)));

        Set<String> members = ScopeQueries.read(db.entityManager(), policy, staff, Filter.NONE, null, 100);
        Map<Scope, Set<String>> batch = ScopeQueries.decide(db.entityManager(), policy, Filter.NONE,
                Map.of(staff, Set.of("1", "2"), tenant7, Set.of("1", "2")), 100);
        ModelKeys everyRow = new Visibility().modelKeys(policy, Filter.NONE, 100).orElseThrow();

        assertThat(members).containsExactlyInAnyOrder("1", "2");
        // Without its row, staff would be told "removed" about document 1 at its next change, and then nothing.
        assertThat(batch.get(staff)).as("staff, at the next batch").isEqualTo(members);
        assertThat(everyRow.members(staff, 100)).as("staff, from every row's keys").isEqualTo(members);
        assertThat(batch.get(tenant7)).as("a NULL key names no tenant").containsExactly("2");
        assertThat(everyRow.members(tenant7, 100)).containsExactly("2");
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aSubjectWhoseLinkIsNullIsStillVisibleThroughThePolicysOtherKeys(Provider provider) {
        CriteriaStandIn db = new CriteriaStandIn(provider, TYPES, folderWorld());
        Policy policy = new Policy(db.entityManager(),
                root -> List.of(root.get("owner"), root.get("folder").get("tenant")));
        Scope ann = scope(ANN, VisibilityKeys.of(Set.of("ann"), Set.of()));

        Map<Scope, Set<String>> batch = ScopeQueries.decide(db.entityManager(), policy, Filter.NONE,
                Map.of(ann, Set.of("1", "2")), 100);

        assertThat(batch.get(ann)).as("ann owns document 1, which has no folder").containsExactly("1");
        assertThat(new Visibility().modelKeys(policy, Filter.NONE, 100).orElseThrow().members(ann, 100))
                .containsExactly("1");
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void thePredicateOfKeysComparesAKeyThroughALinkWithoutAnInnerJoin(Provider provider) {
        CriteriaStandIn db = new CriteriaStandIn(provider, TYPES, folderWorld());
        CriteriaBuilder cb = db.entityManager().getCriteriaBuilder();
        Root<Doc> root = cb.createTupleQuery().from(Doc.class);

        VisibilityKeys.of(Set.of("ann"), Set.of(7L)).toPredicate(List.of(root.get("owner"),
                root.get("folder").get("tenant")), cb);

        // What visibleTo and a subscription's own reads state must be what the key rows read: ann's document 1 too.
        assertThat(db.compared).hasSize(2);
        assertThat(CriteriaStandIn.names(db.compared.get(1))).containsExactly("folder", "tenant");
        assertThat(CriteriaStandIn.innerLinks(db.compared.get(1))).as("links joined inner").isEmpty();
    }

    @Test
    void everyRowsKeysAreNotKeptWhenSubjectsWithNoRowPassTheBound() {
        // Three documents with a reader each, five with none: three rows of keys, eight subjects to hold.
        CriteriaStandIn db = new CriteriaStandIn(Provider.HIBERNATE, TYPES, readerWorld(3, 5));
        Policy policy = new Policy(db.entityManager(), root -> List.of(root.join("readers")));

        var tooMany = new Visibility().modelKeys(policy, Filter.NONE, 4);

        // Kept, it would hold at most five of the eight for staff, who would miss the others and their deletes.
        assertThat(tooMany.map(keys -> keys.members(scope(STAFF, VisibilityKeys.all()), 100)))
                .as("every row's keys, read with at most 4 rows").isEmpty();
        assertThat(new Visibility().modelKeys(policy, Filter.NONE, 7)).isEmpty();
    }

    @Test
    void everyRowsKeysAreKeptWholeWhenTheyFit() {
        CriteriaStandIn db = new CriteriaStandIn(Provider.HIBERNATE, TYPES, readerWorld(3, 5));
        Policy policy = new Policy(db.entityManager(), root -> List.of(root.join("readers")));

        ModelKeys keys = new Visibility().modelKeys(policy, Filter.NONE, 8).orElseThrow();

        assertThat(keys.members(scope(STAFF, VisibilityKeys.all()), 100)).hasSize(8);
        assertThat(keys.members(scope(ANN, VisibilityKeys.of(Set.of("r2"))), 100)).containsExactly("2");
    }

    /** Document 1 is ann's and in no folder; document 2 is bob's, in a folder of tenant 7. */
    private static List<Map<String, Object>> folderWorld() {
        Map<String, Object> one = new HashMap<>(Map.of("id", 1L, "owner", "ann"));
        one.put("folder", null);
        return List.of(one, Map.of("id", 2L, "owner", "bob", "folder", Map.of("id", 10L, "tenant", 7L)));
    }

    /** Documents 1.. with a reader each ({@code r1}, ...), then documents with none. */
    private static List<Map<String, Object>> readerWorld(int withReader, int without) {
        List<Map<String, Object>> world = new ArrayList<>();
        for (long id = 1; id <= withReader + without; id++) {
            world.add(Map.of("id", id, "readers", id <= withReader ? List.of("r" + id) : List.of()));
        }
        return world;
    }

    private static Scope scope(Viewer viewer, VisibilityKeys keys) {
        return new Scope(viewer, "StandInDoc", Filter.NONE, keys);
    }

    @Entity(name = "StandInDoc")
    static class Doc {
        @Id
        Long id;
    }

    @Entity(name = "StandInFolder")
    static class Folder {
        @Id
        Long id;
    }

    /** A keyed policy of documents whose key expressions the test names. */
    record Policy(EntityManager entityManager, Function<Root<Doc>, List<Expression<?>>> by)
            implements KeyedVisibilityPolicy<Doc> {
        @Override
        public Class<Doc> entity() {
            return Doc.class;
        }

        @Override
        public List<Expression<?>> visibleBy(CriteriaBuilder cb, Root<Doc> root) {
            return by.apply(root);
        }

        @Override
        public VisibilityKeys keysOf(Viewer viewer) {
            throw new AssertionError("every scope here holds its keys");
        }
    }

    @Test
    void aUuidKeyColumnThatHoldsNoUuidMakesItsRowVisibleByNothingAndIsLoggedOncePerModel() {
        try (LoggedRecords log = LoggedRecords.of(KeyRows.class)) {
            List<LogRecord> logged = log.records();
            assertThat(KeyRows.uuidText(" 6F9619FF-8B86-D011-B42D-00C04FC964FF ", "test.ModelA"))
                    .isEqualTo("6f9619ff-8b86-d011-b42d-00c04fc964ff");
            assertThat(KeyRows.uuidText(null, "test.ModelA")).isNull();
            assertThat(logged).isEmpty();

            assertThat(KeyRows.uuidText("0x6F9619FF8B86D011", "test.ModelA")).isNull();
            assertThat(KeyRows.uuidText("another", "test.ModelA")).isNull();
            assertThat(KeyRows.uuidText("0x00", "test.ModelB")).isNull();
            assertThat(logged).hasSize(2);
            assertThat(logged.get(0).getMessage()).contains("test.ModelA").contains("UUID")
                    .doesNotContain("0x6F9619FF8B86D011");
            assertThat(logged.get(1).getMessage()).contains("test.ModelB");
        }
    }
}
