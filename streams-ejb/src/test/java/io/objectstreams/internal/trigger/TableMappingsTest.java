package io.objectstreams.internal.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.Streamed;
import jakarta.persistence.AttributeOverride;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Embedded;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Inheritance;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinColumns;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A trigger's view of a mapping: JPA's default names as PostgreSQL folds them, and what it refuses. */
class TableMappingsTest {

    @Embeddable
    static class Place {
        String street;
        @Column(name = "TOWN")
        String city;
    }

    @Entity(name = "Doc")
    @Table(name = "doc_table", schema = "Sales")
    @Streamed(model = "it.Doc")
    static class Doc {
        @Id
        Long id;
        @Column(name = "\"Title\"")
        String title;
        Integer amount;
        @Embedded
        @AttributeOverride(name = "street", column = @Column(name = "place_street"))
        Place place;
        @ManyToOne
        Doc partner;
        @Version
        int version;
        @Lob
        String body;
        @OneToMany
        List<Doc> children;
        transient String scratch;
    }

    @Entity
    @Streamed(subject = "doc", facet = "lines")
    static class Line {
        @Id
        Long id;
        String label;
        @ManyToOne
        @JoinColumn(name = "DOC_REF")
        Doc doc;
    }

    @Embeddable
    static class Key {
        String region;
        Integer number;
    }

    @Entity(name = "Keyed")
    @Streamed
    static class Keyed {
        @EmbeddedId
        Key key;
        String note;
    }

    @Entity
    @Streamed(subject = "keyed", facet = "notes")
    static class KeyedNote {
        @Id
        Long id;
        @ManyToOne
        @JoinColumns({@JoinColumn(name = "k_number", referencedColumnName = "number"),
                @JoinColumn(name = "k_region", referencedColumnName = "region")})
        Keyed keyed;
    }

    @Entity
    @Streamed(subject = "doc", facet = "notes")
    static class ByTitle {
        @Id
        Long id;
        @ManyToOne
        @JoinColumn(name = "doc_title", referencedColumnName = "\"Title\"")
        Doc doc;
    }

    @Entity
    @Inheritance
    @Streamed
    static class Root {
        @Id
        Long id;
    }

    @Test
    void columnsAreJpaDefaultsFoldedAsPostgresFoldsThemAndAttributesAreNamedAsTheListenerNamesThem() {
        TableMapping doc = TableMappings.of(Doc.class);
        assertThat(doc.schema()).isEqualTo("sales");
        assertThat(doc.table()).isEqualTo("doc_table");
        assertThat(doc.qualifiedTable()).isEqualTo("\"sales\".\"doc_table\"");
        assertThat(doc.keyColumns()).containsExactly("id");
        assertThat(doc.model()).isEqualTo("it.Doc");
        assertThat(doc.part()).isFalse();
        assertThat(doc.attributes()).containsExactly(
                Map.entry("title", List.of("Title")),
                Map.entry("amount", List.of("amount")),
                Map.entry("place", List.of("place_street", "town")),
                Map.entry("partner", List.of("partner_id")));
    }

    @Test
    void aPartReportsOnItsSubjectsJoinColumnsUnderTheSubjectsModel() {
        TableMapping line = TableMappings.of(Line.class);
        assertThat(line.table()).isEqualTo("line");
        assertThat(line.part()).isTrue();
        assertThat(line.model()).isEqualTo("it.Doc");
        assertThat(line.facet()).isEqualTo("lines");
        assertThat(line.subjectColumns()).containsExactly("doc_ref");
        assertThat(TriggerSql.subjectPk(line, "n")).isEqualTo("n.\"doc_ref\"::text");
    }

    @Test
    void aCompositeKeyIsItsColumnsInDeclaredOrderAndItsPkAJsonArray() {
        TableMapping keyed = TableMappings.of(Keyed.class);
        assertThat(keyed.keyColumns()).containsExactly("region", "number");
        assertThat(TriggerSql.subjectPk(keyed, "o")).contains("jsonb_build_array(o.\"region\", o.\"number\")::text");
    }

    @Test
    void anInheritanceHierarchyIsRefusedNamingTheEntity() {
        assertThatThrownBy(() -> TableMappings.of(Root.class)).hasMessageContaining(Root.class.getName())
                .hasMessageContaining("inheritance");
    }

    @Test
    void theGeneratedSqlQuotesNamesAndLabelsAndItsHashFollowsTheMapping() {
        TableMapping doc = TableMappings.of(Doc.class);
        TriggerSql sql = new TriggerSql(doc, Map.of(), "object_streams_events", "streams_outbox");
        assertThat(String.join(";\n", sql.install())).contains("'it.Doc'").contains("n.\"Title\"")
                .contains("COMMENT ON TRIGGER \"streams_capture_update\" ON \"sales\".\"doc_table\" IS 'object-streams capture "
                        + sql.hash() + "'");
        assertThat(new TriggerSql(doc, Map.of(), "other_channel", "streams_outbox").hash()).isNotEqualTo(sql.hash());
        assertThat(new TriggerSql(doc, Map.of("amount", "json"), "object_streams_events", "streams_outbox").hash())
                .as("a column compared as text").isNotEqualTo(sql.hash());
        TableMapping quoted = new TableMapping("x", null, "t", List.of("id"), "it.'; DROP TABLE x; --", "object", false,
                List.of("id"), Map.of());
        assertThat(String.join("\n", new TriggerSql(quoted, Map.of(), "c", "streams_outbox").install())).contains("'it.''; DROP TABLE x; --'");
    }

    @Test
    void aLabelCannotEndTheCommentOpeningTheFunctionBody() {
        TableMapping carriage = new TableMapping("x", null, "t", List.of("id"), "it.A\rRAISE EXCEPTION 'x';", "object",
                false, List.of("id"), Map.of());
        String function = new TriggerSql(carriage, Map.of(), "c", "streams_outbox").install().get(0);
        String comment = function.split("\n")[1];
        assertThat(comment).startsWith("-- ").contains("(model it.A RAISE EXCEPTION 'x';, facet object)")
                .doesNotContain("\r");
    }

    @Test
    void longTableNamesSharingABeginningGetFunctionsOfTheirOwnThatPostgresqlKeepsWhole() {
        String common = "a_table_name_so_long_that_it_reaches_the_limit_of_names_";
        String first = new TriggerSql(mapping(common + "one"), Map.of(), "c", "streams_outbox").functionName();
        String second = new TriggerSql(mapping(common + "two"), Map.of(), "c", "streams_outbox").functionName();
        assertThat(first).isNotEqualTo(second).startsWith("\"streams_capture_a_table_name");
        assertThat(first.length() - 2).as("bytes, quotes aside").isLessThanOrEqualTo(63);
        assertThat(new TriggerSql(mapping("short"), Map.of(), "c", "streams_outbox").functionName())
                .isEqualTo("\"streams_capture_short\"");
    }

    @Test
    void typesWithNoEqualityAreComparedAsTextAndSoAreArraysOfThemAndComposites() {
        assertThat(ColumnComparisons.textCompared("json")).isTrue();
        assertThat(ColumnComparisons.textCompared("array of json")).isTrue();
        assertThat(ColumnComparisons.textCompared("composite")).isTrue();
        assertThat(ColumnComparisons.textCompared("array of composite")).isTrue();
        // Equal under the type's own equality, yet another value: compared as text, byte by byte (issue 40 item 7).
        assertThat(ColumnComparisons.sameOnlyAsText("citext")).isTrue();
        assertThat(ColumnComparisons.sameOnlyAsText("interval")).isTrue();
        assertThat(ColumnComparisons.sameOnlyAsText("nondeterministic")).isTrue();
        assertThat(ColumnComparisons.sameOnlyAsText("array of citext")).isTrue();
        assertThat(ColumnComparisons.sameOnlyAsText("text")).isFalse();
        assertThat(ColumnComparisons.textCompared("jsonb")).isFalse();
        assertThat(ColumnComparisons.textCompared("array of int4")).isFalse();
    }

    @Test
    void theTriggerWritesToTheOutboxItIsGivenWhateverTheSearchPath() {
        String function = new TriggerSql(mapping("t"), Map.of(), "c", "\"app\".streams_outbox").install().get(0);
        assertThat(function).contains("INSERT INTO \"app\".streams_outbox (");
    }

    @Test
    void aSubjectReferenceIsReadInTheOrderOfTheSubjectsKeyAndOneOnAnotherColumnIsRefused() {
        assertThat(TableMappings.of(KeyedNote.class).subjectColumns()).as("the key's order, not the declared one")
                .containsExactly("k_region", "k_number");
        assertThatThrownBy(() -> TableMappings.of(ByTitle.class)).hasMessageContaining(ByTitle.class.getName())
                .hasMessageContaining("not on its key");
    }

    private static TableMapping mapping(String table) {
        return new TableMapping("x", null, table, List.of("id"), "it.X", "object", false, List.of("id"), Map.of());
    }
}
