package io.objectstreams.internal.trigger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How a capture trigger tells whether a column changed: the SQL comparing a row's old and new values, attribute by
 * attribute, and which column types are compared as their text rather than with their own equality.
 */
final class ColumnComparisons {

    /**
     * Types with no equality operator, compared as text; so are arrays of them and composites, whose equality
     * needs every element's or field's ({@link TriggerCatalog#columnTypes} names the types).
     */
    private static final Set<String> TEXT_COMPARED = Set.of("json", "xml", "point", "line", "polygon", "circle", "box",
            "path", "lseg", "composite");

    /**
     * Types whose equality is not identity: a case-only edit of {@code citext} or of text under a nondeterministic
     * collation, or {@code '1 day'} made {@code '24 hours'}, is equal, yet the application reads another value, and
     * the entity listener reports it. They are compared as their text, byte by byte ({@code COLLATE "C"}).
     */
    private static final Set<String> EQUAL_NOT_SAME = Set.of("citext", "interval", "nondeterministic");

    private ColumnComparisons() {
    }

    /** The attributes of {@code m} whose columns differ between the old row {@code o} and the new {@code n}. */
    static String changedFields(TableMapping m, Map<String, String> types) {
        if (m.attributes().isEmpty()) {
            return "'{}'::text[]";
        }
        List<String> cases = new ArrayList<>();
        m.attributes().forEach((attribute, columns) -> cases.add("CASE WHEN " + rowOf(columns, "o", types)
                + " IS DISTINCT FROM " + rowOf(columns, "n", types) + " THEN " + Sql.literal(attribute) + " END"));
        return "array_remove(ARRAY[" + String.join(", ", cases) + "]::text[], NULL)";
    }

    /** The value of {@code columns} in the row {@code alias}, as compared: one column alone, several as a row. */
    static String rowOf(List<String> columns, String alias, Map<String, String> types) {
        Function<String, String> value = c -> alias + "." + Sql.identifier(c)
                + (sameOnlyAsText(types.getOrDefault(c, "")) ? "::text COLLATE \"C\""
                : textCompared(types.getOrDefault(c, "")) ? "::text" : "");
        List<String> values = columns.stream().map(value).toList();
        return values.size() == 1 ? values.get(0) : "ROW(" + String.join(", ", values) + ")";
    }

    /** Whether a column of {@code type} is compared as its text byte by byte, its equality not being identity. */
    static boolean sameOnlyAsText(String type) {
        return EQUAL_NOT_SAME.contains(type) || type.startsWith("array of ") && sameOnlyAsText(type.substring(9));
    }

    /** Whether a column of {@code type} is compared as its text, having no equality of its own. */
    static boolean textCompared(String type) {
        return TEXT_COMPARED.contains(type) || type.startsWith("array of ") && textCompared(type.substring(9));
    }
}
