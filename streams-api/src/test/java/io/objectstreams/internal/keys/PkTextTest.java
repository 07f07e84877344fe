package io.objectstreams.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The one spelling of a pk, a composite one as PostgreSQL's jsonb prints jsonb_build_array, and reading it back. */
class PkTextTest {

    private static final List<Class<?>> REGION_NUMBER = List.of(String.class, Long.class);

    private static String canonical(String pk, List<Class<?>> types) {
        try {
            return PkText.canonical(pk, types);
        } catch (InvalidKeyText noKey) {
            return null;
        }
    }

    @Test
    void partsAreSpelledAsJsonbPrintsThem() {
        assertThat(PkText.text(new Object[] {"eu", 7})).isEqualTo("[\"eu\", 7]");
        assertThat(PkText.text(new Object[] {"a\"b\\c\nd\u0001é", true, new BigInteger("123456789012345678901"),
                LocalDate.of(2026, 12, 4)})).isEqualTo("[\"a\\\"b\\\\c\\nd\\u0001é\", true, 123456789012345678901, \"2026-12-04\"]");
        UUID id = UUID.randomUUID();
        assertThat(PkText.text(new Object[] {id, (short) 3})).isEqualTo("[\"" + id + "\", 3]");
    }

    @Test
    void aKeyOfOnePartIsThatPartsText() {
        assertThat(PkText.text(new Object[] {7L})).isEqualTo("7");
        assertThat(PkText.canonical("007", List.of(Long.class))).isEqualTo("7");
        assertThat(PkText.canonical("[\"eu\", 7]", List.of(String.class))).as("text, not an array")
                .isEqualTo("[\"eu\", 7]");
        assertThat(PkText.read("7", List.of(Integer.class))).isEqualTo(7);
    }

    @Test
    void aCompositePkIsReadBackPartByPartAndAnythingElseNamesNothing() {
        assertThat((Object[]) PkText.read("[\"eu\", 7]", REGION_NUMBER)).containsExactly("eu", 7L);
        assertThat(canonical("[\"eu\",7]", REGION_NUMBER)).as("any JSON spacing").isEqualTo("[\"eu\", 7]");
        assertThat(canonical(" [ \"eu\" ,\n7 ] ", REGION_NUMBER)).isEqualTo("[\"eu\", 7]");
        assertThat(canonical("[\"eu\", 7.0]", REGION_NUMBER)).as("a part read as a value is").isEqualTo("[\"eu\", 7]");
        assertThat(canonical("[\"eu\", \"7\"]", REGION_NUMBER)).as("a number quoted").isNull();
        assertThat(canonical("[7, 7]", REGION_NUMBER)).as("text unquoted").isNull();
        assertThat(canonical("[\"eu\"]", REGION_NUMBER)).as("too few").isNull();
        assertThat(canonical("[\"eu\", 7, 8]", REGION_NUMBER)).as("too many").isNull();
        assertThat(canonical("[\"eu\", 7.5]", REGION_NUMBER)).as("not whole").isNull();
        assertThat(canonical("[\"eu\", null]", REGION_NUMBER)).as("null").isNull();
        assertThat(canonical("[\"eu\", true]", REGION_NUMBER)).as("a boolean for a number").isNull();
        assertThat(canonical("7", REGION_NUMBER)).isNull();
        assertThat(canonical("{\"a\": 1}", REGION_NUMBER)).isNull();
        assertThat(canonical("[\"eu\", 7", REGION_NUMBER)).as("not JSON").isNull();
        assertThat(canonical("[\"not-a-uuid\", 1]", List.of(UUID.class, Integer.class))).isNull();
        UUID id = UUID.randomUUID();
        assertThat(canonical("[\"" + id.toString().toUpperCase() + "\",true]", List.of(UUID.class, Boolean.class)))
                .isEqualTo("[\"" + id + "\", true]");
    }

    @Test
    void aPkOfTheWrongWidthIsRefusedByName() {
        assertThatThrownBy(() -> PkText.read("[\"eu\"]", REGION_NUMBER)).isInstanceOf(InvalidKeyText.class)
                .hasMessageContaining("2 parts");
        assertThatThrownBy(() -> PkText.read("[\"eu\", \"7\"]", REGION_NUMBER))
                .hasMessageContaining("part 2 is STRING");
    }
}
