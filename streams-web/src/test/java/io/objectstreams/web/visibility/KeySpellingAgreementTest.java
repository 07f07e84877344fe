package io.objectstreams.web.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.Filterable;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.web.filter.FilterDeclarations;
import io.objectstreams.web.filter.InvalidFilterException;
import jakarta.json.Json;
import jakarta.persistence.Id;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The three readers of key text agree (G16, G8): the pk capture and delivery spell ({@link SubjectId#canonical}), the
 * value a filter on the key reads ({@link FilterDeclarations}) and the text visibility compares
 * ({@link VisibilityKeys#keyText}) name the same value in the same spelling, or all refuse it, for every supported key
 * type and every spelling in the table.
 */
class KeySpellingAgreementTest {

    static class LongKey {
        @Id
        @Filterable
        Long id;
    }

    static class IntKey {
        @Id
        @Filterable
        int id;
    }

    static class ShortKey {
        @Id
        @Filterable
        Short id;
    }

    static class ByteKey {
        @Id
        @Filterable
        byte id;
    }

    static class BigKey {
        @Id
        @Filterable
        BigInteger id;
    }

    static class FlagKey {
        @Id
        @Filterable
        Boolean id;
    }

    static class UuidKey {
        @Id
        @Filterable
        UUID id;
    }

    static class DateKey {
        @Id
        @Filterable
        LocalDate id;
    }

    static class TextKey {
        @Id
        @Filterable
        String id;
    }

    private static final UUID ID = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");

    private static final Map<Class<?>, List<String>> SPELLINGS = Map.of(
            LongKey.class, List.of("7", "007", "+7", "-7", "-0", "7.0", "7.5", "1e1", "\u0667", "x", "", " 7",
                    "9223372036854775808"),
            IntKey.class, List.of("7", "+7", "2147483648", "7.5"),
            ShortKey.class, List.of("7", "32768", "-32768"),
            ByteKey.class, List.of("7", "+07", "128"),
            BigKey.class, List.of("123456789012345678901234567890", "1e30", "0012", "1e999999999",
                    "9".repeat(5_000)),
            FlagKey.class, List.of("true", "false", "TRUE", "1", "t"),
            UuidKey.class, List.of(ID.toString(), ID.toString().toUpperCase(), "1-1-1-1-1",
                    ID.toString().replace("-", ""), "x"),
            DateKey.class, List.of("2020-01-01", "2020-1-1", "20200101", "x"),
            TextKey.class, List.of("007", " a", "", "[\"eu\", 7]"));

    @Test
    void captureFiltersAndVisibilitySpellEveryKeyAlike() {
        List<String> disagreements = new ArrayList<>();
        SPELLINGS.forEach((entity, texts) -> {
            for (String text : texts) {
                String captured = SubjectId.of(entity).canonical(text);
                String filtered = filtered(entity, text);
                if (!java.util.Objects.equals(captured, filtered)) {
                    disagreements.add(entity.getSimpleName() + " \"" + abbreviated(text) + "\": capture "
                            + abbreviated(String.valueOf(captured)) + ", filter then visibility "
                            + abbreviated(String.valueOf(filtered)));
                }
            }
        });
        assertThat(disagreements).isEmpty();
    }

    @Test
    void visibilityAcceptsEveryTypeAKeyMayHave() {
        for (Class<?> entity : SPELLINGS.keySet()) {
            Class<?> type = io.objectstreams.internal.keys.JpaMembers.key(entity).types().get(0);
            assertThat(VisibilityKeys.supportsKeyType(type)).as(type.getName()).isTrue();
        }
    }

    static class Shift {
        @Filterable
        java.time.DayOfWeek day;
    }

    @Test
    void anEnumIsItsNameToFiltersAndVisibility() {
        assertThat(filtered(Shift.class, "day", "MONDAY")).isEqualTo("MONDAY");
        assertThat(filtered(Shift.class, "day", "monday")).isNull();
        assertThat(VisibilityKeys.supportsKeyType(java.time.DayOfWeek.class)).isTrue();
    }

    /** The filter's value for {@code text} as visibility spells it; {@code null} when either refuses it. */
    private static String filtered(Class<?> entity, String text) {
        return filtered(entity, "id", text);
    }

    private static String filtered(Class<?> entity, String attribute, String text) {
        try {
            Object value = FilterDeclarations.parse(entity, Json.createObjectBuilder().add(attribute, text).build())
                    .conditions().get(0).value();
            return VisibilityKeys.keyText(value);
        } catch (InvalidFilterException refused) {
            return null;
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 20 ? text.substring(0, 20) + "..." : text;
    }
}
