package io.objectstreams.internal.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** One spelling of a key per value: a table of types and spellings, canonical, respelled and refused. */
class KeySpellingTest {

    private static final UUID ID = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
    private static final String UPPER_ID = ID.toString().toUpperCase();

    /** A spelling of a key of a type, and the canonical text it reads as; {@code null} when it is refused. */
    private record Spelling(Class<?> type, String text, String canonical) {
    }

    private static Spelling as(Class<?> type, String text, String canonical) {
        return new Spelling(type, text, canonical);
    }

    private static Spelling same(Class<?> type, String text) {
        return new Spelling(type, text, text);
    }

    private static Spelling refused(Class<?> type, String text) {
        return new Spelling(type, text, null);
    }

    private static final List<Spelling> TABLE = List.of(
            same(Long.class, "7"), same(Long.class, "-7"), same(Long.class, "0"),
            same(Long.class, "9223372036854775807"), same(Long.class, "-9223372036854775808"),
            as(Long.class, "007", "7"), as(Long.class, "+7", "7"), as(Long.class, "-0", "0"),
            as(Long.class, "7.0", "7"), as(Long.class, "1e1", "10"), as(Long.class, "70E-1", "7"),
            as(long.class, "007", "7"),
            refused(Long.class, "7.5"), refused(Long.class, "\u0667"), refused(Long.class, " 7"),
            refused(Long.class, "7 "), refused(Long.class, ""), refused(Long.class, "x"), refused(Long.class, "0x7"),
            refused(Long.class, "7L"), refused(Long.class, "9223372036854775808"), refused(Long.class, "1e999999999"),
            refused(Long.class, "1e-999999999"), refused(Long.class, "NaN"), refused(Long.class, "Infinity"),
            same(Integer.class, "2147483647"), as(int.class, "+7", "7"), refused(Integer.class, "2147483648"),
            same(Short.class, "-32768"), refused(Short.class, "32768"), as(short.class, "07", "7"),
            same(Byte.class, "-128"), refused(Byte.class, "128"), as(byte.class, "1e2", "100"),
            same(BigInteger.class, "123456789012345678901234567890"),
            as(BigInteger.class, "1e30", "1" + "0".repeat(30)), as(BigInteger.class, "0012", "12"),
            same(BigInteger.class, "9".repeat(KeySpelling.MAX_DIGITS)),
            refused(BigInteger.class, "9".repeat(KeySpelling.MAX_DIGITS + 1)),
            refused(BigInteger.class, "1e999999999"), refused(BigInteger.class, "1.5"),
            same(Boolean.class, "true"), same(boolean.class, "false"), refused(Boolean.class, "TRUE"),
            refused(Boolean.class, "1"), refused(Boolean.class, "t"), refused(Boolean.class, "yes"),
            same(UUID.class, ID.toString()), as(UUID.class, UPPER_ID, ID.toString()),
            refused(UUID.class, "1-1-1-1-1"), refused(UUID.class, ID.toString().replace("-", "")),
            refused(UUID.class, "{" + ID + "}"), refused(UUID.class, "x"),
            same(LocalDate.class, "2020-01-01"), same(LocalDate.class, "+10000-01-01"),
            refused(LocalDate.class, "2020-1-1"), refused(LocalDate.class, "20200101"),
            refused(LocalDate.class, "2020-02-30"), refused(LocalDate.class, "2020-01-01T00:00"),
            same(String.class, "007"), same(String.class, ""), same(String.class, " a "),
            same(String.class, "[\"eu\", 7]"),
            same(DayOfWeek.class, "MONDAY"), refused(DayOfWeek.class, "monday"), refused(DayOfWeek.class, "0"),
            refused(BigDecimal.class, "12"), refused(LocalDateTime.class, "2020-01-01T00:00"),
            refused(Object.class, "7"));

    @Test
    void everySpellingReadsAsItsCanonicalTextOrIsRefused() {
        List<String> wrong = new ArrayList<>();
        for (Spelling row : TABLE) {
            String read;
            try {
                read = KeySpelling.canonical(row.text(), row.type());
            } catch (InvalidKeyText refused) {
                read = null;
            }
            if (!java.util.Objects.equals(read, row.canonical())) {
                wrong.add(row + " read as " + read);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void onlyTheCanonicalTextParsesStrictly() {
        List<String> wrong = new ArrayList<>();
        for (Spelling row : TABLE) {
            boolean parsed;
            try {
                Object value = KeySpelling.parse(row.text(), row.type());
                parsed = KeySpelling.text(value).equals(row.text());
            } catch (InvalidKeyText refused) {
                parsed = false;
            }
            if (parsed != row.text().equals(row.canonical())) {
                wrong.add(row + (parsed ? " parsed" : " refused"));
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void valuesAreReadAsTheirTypeAndSpelledBack() {
        assertThat(KeySpelling.read("007", Long.class)).isEqualTo(7L);
        assertThat(KeySpelling.read("7", int.class)).isEqualTo(7);
        assertThat(KeySpelling.read("7", Short.class)).isEqualTo((short) 7);
        assertThat(KeySpelling.read("7", Byte.class)).isEqualTo((byte) 7);
        assertThat(KeySpelling.read(UPPER_ID, UUID.class)).isEqualTo(ID);
        assertThat(KeySpelling.read("MONDAY", DayOfWeek.class)).isEqualTo(DayOfWeek.MONDAY);
        assertThat(KeySpelling.text(7L)).isEqualTo(KeySpelling.text(7)).isEqualTo(KeySpelling.text("7"))
                .isEqualTo(KeySpelling.text((short) 7)).isEqualTo(KeySpelling.text(BigInteger.valueOf(7)))
                .isEqualTo("7");
        assertThat(KeySpelling.text(DayOfWeek.MONDAY)).isEqualTo("MONDAY");
        assertThat(KeySpelling.text(LocalDate.of(2026, 12, 4))).isEqualTo("2026-12-04");
        assertThat(KeySpelling.text(false)).isEqualTo("false");
    }

    @Test
    void typesWithMoreThanOneTextAreNoKeys() {
        for (Class<?> type : List.of(String.class, Long.class, long.class, Integer.class, int.class, Short.class,
                short.class, Byte.class, byte.class, BigInteger.class, Boolean.class, boolean.class, UUID.class,
                LocalDate.class, DayOfWeek.class)) {
            assertThat(KeySpelling.supports(type)).as(type.getName()).isTrue();
        }
        // "12" and "12.0", "1.0" and "1", a time in two zones: more than one text for one value, or one for two.
        for (Class<?> type : List.of(BigDecimal.class, Double.class, double.class, Float.class, LocalDateTime.class,
                java.util.Date.class, Character.class, Object.class)) {
            assertThat(KeySpelling.supports(type)).as(type.getName()).isFalse();
        }
        assertThat(KeySpelling.textOrNull(new BigDecimal("12"))).isNull();
        assertThat(KeySpelling.textOrNull(null)).isNull();
        assertThatThrownBy(() -> KeySpelling.text(1.5)).isInstanceOf(InvalidKeyText.class)
                .hasMessageContaining("java.lang.Double");
    }

    @Test
    void aRefusalNamesTheTextTheTypeAndWhy() {
        assertThatThrownBy(() -> KeySpelling.read("x7", Long.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"x7\" is no key of type java.lang.Long: enter a whole number of at most 1000 digits");
        assertThatThrownBy(() -> KeySpelling.parse("007", Long.class))
                .hasMessageContaining("\"007\"").hasMessageContaining("canonical text 7");
        assertThatThrownBy(() -> KeySpelling.read("9".repeat(100), Long.class)).isInstanceOf(InvalidKeyText.class)
                .hasMessageContaining("...");
    }
}
