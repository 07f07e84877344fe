package io.objectstreams.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The one spelling of a composite pk, as PostgreSQL's jsonb prints jsonb_build_array, and reading it back. */
class SubjectPkTest {

    @Test
    void partsAreSpelledAsJsonbPrintsThem() {
        assertThat(SubjectPk.of(new Object[] {"eu", 7})).isEqualTo("[\"eu\", 7]");
        assertThat(SubjectPk.of(new Object[] {"a\"b\\c\nd\u0001é", true, new BigInteger("123456789012345678901"),
                LocalDate.of(2026, 12, 4)})).isEqualTo("[\"a\\\"b\\\\c\\nd\\u0001é\", true, 123456789012345678901, \"2026-12-04\"]");
    }

    @Test
    void aPkIsReadBackIntoItsPartsAndAnythingElseNamesNothing() {
        List<Class<?>> types = List.of(String.class, Long.class);
        assertThat(SubjectPk.parse("[\"eu\", 7]", types)).containsExactly("eu", 7L);
        assertThat(SubjectPk.parse("[\"eu\",7]", types)).as("any JSON spacing").containsExactly("eu", 7L);
        assertThat(SubjectPk.parse("[\"eu\", \"7\"]", types)).as("a number quoted").isNull();
        assertThat(SubjectPk.parse("[7, 7]", types)).as("text unquoted").isNull();
        assertThat(SubjectPk.parse("[\"eu\"]", types)).as("too few").isNull();
        assertThat(SubjectPk.parse("[\"eu\", 7.5]", types)).as("not whole").isNull();
        assertThat(SubjectPk.parse("7", types)).isNull();
        assertThat(SubjectPk.parse("[\"eu\", 7", types)).as("not JSON").isNull();
        assertThat(SubjectPk.parse("[\"not-a-uuid\"]", List.of(UUID.class))).isNull();
        String spelled = SubjectPk.of(SubjectPk.parse("[\"eu\",7]", types));
        assertThat(spelled).as("canonical").isEqualTo("[\"eu\", 7]");
    }
}
