package io.objectstreams.internal.trigger;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a capture trigger needs of one entity's mapping, in database terms: its table, the key columns in declared
 * order, the columns of each attribute that {@code changed_fields} names (an embedded attribute has several), and
 * what its changes are reported on. An entity that is its own subject reports on its key ({@link #subjectColumns}
 * are the key columns); a part of another object ({@code @Streamed(subject = ...)}) reports on the join columns
 * of that reference, under the subject's model, as an update of its facet.
 *
 * @param entity         the entity's class name, for messages
 * @param schema         the table's schema, or {@code null} for the search path's
 * @param table          the table, as PostgreSQL names it
 * @param keyColumns     the primary key's columns, in declared order
 * @param model          the model label its rows carry (the subject's, for a part)
 * @param facet          the facet its rows carry
 * @param part           whether it reports on another object
 * @param subjectColumns the columns holding the reported subject's key, in that key's declared order
 * @param attributes     each compared attribute's columns, in declaration order
 */
public record TableMapping(String entity, String schema, String table, List<String> keyColumns, String model,
                           String facet, boolean part, List<String> subjectColumns,
                           Map<String, List<String>> attributes) {

    public TableMapping {
        Objects.requireNonNull(table);
        keyColumns = List.copyOf(keyColumns);
        subjectColumns = List.copyOf(subjectColumns);
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    /** The table as SQL: quoted, schema-qualified when a schema is named. */
    public String qualifiedTable() {
        return schema == null ? Sql.identifier(table) : Sql.identifier(schema) + "." + Sql.identifier(table);
    }

    /** Every column the trigger reads: keys, subject columns and attributes' columns, each once. */
    public List<String> columns() {
        LinkedHashSet<String> all = new LinkedHashSet<>(keyColumns);
        all.addAll(subjectColumns);
        attributes.values().forEach(all::addAll);
        return List.copyOf(all);
    }
}
