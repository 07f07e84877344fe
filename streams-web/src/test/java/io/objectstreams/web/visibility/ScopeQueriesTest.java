package io.objectstreams.web.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.visibility.CriteriaStandIn.Provider;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How {@link ScopeQueries} decides a batch's scopes together under a keyed policy, over a stand-in of the Criteria
 * API ({@link CriteriaStandIn}): each scope gets exactly the pks its keys admit among those it asked about, and no
 * more; a scope that asks about nothing, an anonymous viewer the policy does not admit (G8) and a viewer holding no
 * key are each answered "nothing" without being asked.
 */
class ScopeQueriesTest {

    private static final Map<String, Class<?>> TYPES = Map.of("id", Long.class, "owner", String.class);

    @Test
    void eachScopeGetsWhatItsKeysAdmitAmongWhatItAskedAndNothingElse() {
        CriteriaStandIn db = new CriteriaStandIn(Provider.HIBERNATE, TYPES, List.of(
                Map.of("id", 1L, "owner", "ann"), Map.of("id", 2L, "owner", "bob"), Map.of("id", 3L, "owner", "ann")));
        KeyRowsTest.Policy policy = new KeyRowsTest.Policy(db.entityManager(), root -> List.of(root.get("owner")));
        Scope ann = scope(new Viewer("ann", Set.of()), VisibilityKeys.of(List.of("ann")));
        Scope staff = scope(new Viewer("staff", Set.of("staff")), VisibilityKeys.all());
        Scope idle = scope(new Viewer("cid", Set.of()), VisibilityKeys.of(List.of("cid")));
        Scope anonymous = scope(Viewer.anonymous(), VisibilityKeys.all());
        Scope keyless = scope(new Viewer("dan", Set.of()), VisibilityKeys.none());

        Map<Scope, Set<String>> decided = ScopeQueries.decide(db.entityManager(), policy, Filter.NONE, Map.of(
                ann, Set.of("1", "2"), staff, Set.of("2", "3", "99"), idle, Set.of(), anonymous, Set.of("1"),
                keyless, Set.of("1", "2", "3")), 100);

        assertThat(decided.get(ann)).as("ann's own among what she asked about").containsExactly("1");
        assertThat(decided.get(staff)).as("every key, but only existing pks it asked about")
                .containsExactlyInAnyOrder("2", "3");
        assertThat(decided.get(idle)).isEmpty();
        assertThat(decided.get(anonymous)).as("an anonymous viewer the policy does not admit (G8)").isEmpty();
        assertThat(decided.get(keyless)).isEmpty();
        assertThat(decided).hasSize(5);
    }

    private static Scope scope(Viewer viewer, VisibilityKeys keys) {
        return new Scope(viewer, "StandInDoc", Filter.NONE, keys);
    }
}
