package io.objectstreams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class VisibilityKeysTest {

    @Test
    void aRowIsAdmittedWhenSomeExpressionHoldsOneOfTheViewersKeys() {
        VisibilityKeys keys = VisibilityKeys.of(Set.of("alice"), List.of(3L, 4));
        assertThat(keys.admits(List.of("alice", "9"))).isTrue();
        assertThat(keys.admits(Arrays.asList("bob", "4"))).isTrue();
        assertThat(keys.admits(Arrays.asList("bob", "5"))).isFalse();
        assertThat(keys.admits(Arrays.asList(null, null))).as("NULL keys admit nobody").isFalse();
        // Keys of one expression never match another's values.
        assertThat(keys.admits(List.of("3", "alice"))).isFalse();
    }

    @Test
    void aSubjectWithNoRowOfKeysIsVisibleOnlyToAHolderOfEveryKey() {
        VisibilityKeys alice = VisibilityKeys.of(Set.of("alice"));
        List<List<String>> noRow = List.of();

        assertThat(VisibilityKeys.all().admitsAny(noRow)).as("it exists: staff see it").isTrue();
        assertThat(alice.admitsAny(noRow)).isFalse();
        assertThat(VisibilityKeys.all().admitsAny(null)).as("no such subject").isFalse();
        assertThat(alice.admitsAny(List.of(List.of("bob"), List.of("alice")))).as("through any row").isTrue();
    }

    @Test
    void allAndNoneAreWhatTheySay() {
        assertThat(VisibilityKeys.all().admits(Arrays.asList((String) null))).isTrue();
        assertThat(VisibilityKeys.none().admits(List.of("alice"))).isFalse();
        assertThat(VisibilityKeys.of(Set.of(), Arrays.asList((Object) null)).isNone())
                .as("no usable key at all is none").isTrue();
    }

    @Test
    void keysReadBackAsTheExpressionsTypeOnlyInTheirCanonicalSpelling() {
        UUID id = UUID.randomUUID();
        assertThat(VisibilityKeys.valuesOf(List.of("7", "007", "x", "-2"), Long.class)).containsExactly(7L, -2L);
        assertThat(VisibilityKeys.valuesOf(List.of("7", "+7"), Integer.class)).containsExactly(7);
        assertThat(VisibilityKeys.valuesOf(List.of(id.toString(), id.toString().toUpperCase()), UUID.class)).containsExactly(id);
        assertThat(VisibilityKeys.valuesOf(List.of("alice", "007"), String.class)).containsExactly("alice", "007");
        assertThat(VisibilityKeys.valuesOf(List.of("GET", "get", "monday"), java.time.DayOfWeek.class)).isEmpty();
        assertThat(VisibilityKeys.valuesOf(List.of("MONDAY"), java.time.DayOfWeek.class)).containsExactly(java.time.DayOfWeek.MONDAY);
        assertThat(VisibilityKeys.valuesOf(List.of("true", "TRUE"), Boolean.class)).containsExactly(true);
    }

    @Test
    void valuesOfOtherTypesAreNoKeysInMemoryOrInSql() {
        // A BigDecimal has more than one text ("12" and "12.0"): no key at all, never a looser match.
        assertThat(VisibilityKeys.keyText(new java.math.BigDecimal("12"))).isNull();
        assertThat(VisibilityKeys.keyText(java.time.LocalDateTime.MIN)).isNull();
        assertThat(VisibilityKeys.keyText(java.time.LocalDate.EPOCH)).as("spelled as a pk is").isEqualTo("1970-01-01");
        assertThat(VisibilityKeys.supportsKeyType(java.math.BigDecimal.class)).isFalse();
        assertThat(VisibilityKeys.valuesOf(List.of("12"), java.math.BigDecimal.class)).isEmpty();
        assertThat(VisibilityKeys.of(List.of(new java.math.BigDecimal("12"))).isNone()).isTrue();
        assertThat(VisibilityKeys.keyText(java.time.DayOfWeek.MONDAY)).isEqualTo("MONDAY");
    }

    @Test
    void keysAreEqualByValue() {
        assertThat(VisibilityKeys.of(Set.of("a"), List.of(1L))).isEqualTo(VisibilityKeys.of(List.of("a"), Set.of(1)))
                .isNotEqualTo(VisibilityKeys.of(Set.of("a"), List.of(2L)));
    }
}
