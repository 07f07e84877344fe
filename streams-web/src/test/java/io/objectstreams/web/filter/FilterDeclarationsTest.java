package io.objectstreams.web.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.Filterable;
import io.objectstreams.Lookup;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterDeclarationsTest {

    enum Colour { RED, GREEN }

    static class Base {
        @Filterable
        String owner;
    }

    static class Thing extends Base {
        @Filterable({Lookup.EXACT, Lookup.IN})
        String status;

        @Filterable({Lookup.EXACT, Lookup.GT, Lookup.GTE, Lookup.LT, Lookup.LTE})
        BigDecimal total;

        @Filterable({Lookup.EXACT, Lookup.ISNULL})
        Colour colour;

        @Filterable({Lookup.IN})
        long count;

        @Filterable
        java.math.BigInteger serial;

        @Filterable
        double weight;

        String secret;
    }

    static class Broken {
        @Filterable({Lookup.GT})
        boolean flag;
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static Filter parse(String text) throws InvalidFilterException {
        return FilterDeclarations.parse(Thing.class, json(text));
    }

    @Test
    void anEmptyFilterIsNoConstraint() throws Exception {
        assertThat(parse("{}")).isEqualTo(Filter.NONE);
        assertThat(parse("{}").isEmpty()).isTrue();
    }

    @Test
    void valuesAreConvertedToTheAttributeType() throws Exception {
        Filter filter = parse("{\"status\":\"open\",\"total__gte\":\"10.5\",\"count__in\":[1,\"2\"],"
                + "\"colour\":\"RED\",\"owner\":\"alice\"}");
        assertThat(filter.conditions()).containsExactly(
                new Filter.Condition("colour", Lookup.EXACT, Colour.RED),
                new Filter.Condition("count", Lookup.IN, List.of(1L, 2L)),
                new Filter.Condition("owner", Lookup.EXACT, "alice"),
                new Filter.Condition("status", Lookup.EXACT, "open"),
                new Filter.Condition("total", Lookup.GTE, new BigDecimal("10.5")));
    }

    @Test
    void theSameConstraintsInAnyOrderAreOneFilter() throws Exception {
        assertThat(parse("{\"status\":\"open\",\"total__lt\":3}"))
                .isEqualTo(parse("{\"total__lt\":3,\"status\":\"open\"}"));
    }

    @Test
    void inTakesAnArrayOrACommaSeparatedString() throws Exception {
        assertThat(parse("{\"status__in\":\"open, paid\"}").conditions().get(0).value()).isEqualTo(List.of("open", "paid"));
        assertThat(parse("{\"status__in\":[\"open\"]}").conditions().get(0).value()).isEqualTo(List.of("open"));
    }

    @Test
    void isnullTakesABoolean() throws Exception {
        assertThat(parse("{\"colour__isnull\":true}").conditions().get(0).value()).isEqualTo(true);
        assertThat(parse("{\"colour__isnull\":\"false\"}").conditions().get(0).value()).isEqualTo(false);
    }

    @Test
    void hugeNumbersAreRefusedBeforeAnythingCostlyIsDoneWithThem() {
        // 1e999999999 parses in constant time, but its exact integer or plain text costs a billion digits.
        for (String value : List.of("\"1e999999999\"", "1e999999999", "\"1e-999999999\"", "\"" + "9".repeat(5_000) + "\"")) {
            assertThatThrownBy(() -> parse("{\"serial\":" + value + ",\"total\":" + value + ",\"weight\":" + value + "}"))
                    .isInstanceOfSatisfying(InvalidFilterException.class, e ->
                            assertThat(e.errors()).containsOnlyKeys("serial", "total", "weight"));
        }
        assertThatThrownBy(() -> parse("{\"weight\":\"1e400\"}")).isInstanceOf(InvalidFilterException.class);
    }

    @Test
    void numbersWithinBoundsKeepTheirValue() throws Exception {
        assertThat(parse("{\"serial\":\"1e30\"}").conditions().get(0).value())
                .isEqualTo(java.math.BigInteger.TEN.pow(30));
        assertThat(parse("{\"total\":\"0.5\"}").conditions().get(0).value()).isEqualTo(new BigDecimal("0.5"));
    }

    @Test
    void everyProblemIsReportedUnderItsKey() {
        assertThatThrownBy(() -> parse("{\"secret\":\"x\",\"total__in\":[1],\"total__gt\":\"lots\","
                + "\"colour\":\"BLUE\",\"status__foo\":\"x\",\"count__in\":[],\"status\":null,\"owner\":5,"
                + "\"colour__isnull\":\"maybe\"}"))
                .isInstanceOfSatisfying(InvalidFilterException.class, e -> {
                    assertThat(e.errors()).containsOnlyKeys("secret", "total__in", "total__gt", "colour", "status__foo",
                            "count__in", "status", "owner", "colour__isnull");
                    assertThat(e.errors().get("secret").get(0)).contains("Unknown filter").contains("status, total");
                    assertThat(e.errors().get("total__in").get(0)).contains("not allowed").contains("total__gte");
                    assertThat(e.errors().get("total__gt").get(0)).isEqualTo("Enter a number.");
                    assertThat(e.errors().get("colour").get(0)).contains("Select a valid choice").contains("RED, GREEN");
                    assertThat(e.errors().get("status__foo").get(0)).contains("Unknown lookup 'foo'");
                    assertThat(e.errors().get("count__in").get(0)).contains("between 1 and");
                    assertThat(e.errors().get("status").get(0)).contains("isnull");
                    assertThat(e.errors().get("owner").get(0)).isEqualTo("Enter text.");
                    assertThat(e.errors().get("colour__isnull").get(0)).isEqualTo("Enter true or false.");
                });
    }

    @Test
    void aWholeNumberAttributeRefusesFractionsAndOverflow() {
        assertThatThrownBy(() -> parse("{\"count__in\":[1.5, 99999999999999999999]}"))
                .isInstanceOfSatisfying(InvalidFilterException.class,
                        e -> assertThat(e.errors().get("count__in").get(0)).isEqualTo("Enter a whole number in range."));
    }

    @Test
    void aRangeLookupOnABooleanIsADeclarationError() {
        assertThatThrownBy(() -> FilterDeclarations.parse(Broken.class, json("{}")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Broken.flag");
    }
}
