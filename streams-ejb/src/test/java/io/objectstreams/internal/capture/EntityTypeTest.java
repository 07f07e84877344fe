package io.objectstreams.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectstreams.StreamsException;
import io.objectstreams.Streamed;
import io.objectstreams.internal.keys.JpaMembers;
import jakarta.persistence.Access;
import jakarta.persistence.AccessType;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntityTypeTest {

    @Entity(name = "Parent")
    @Streamed(model = "test.Parent")
    static class Parent {
        @Id
        Long id;
        String name;
        BigDecimal amount;
        @Version
        int version;
        @Transient
        String scratch;
        transient String alsoScratch;
        static String constant = "c";
        @OneToMany(mappedBy = "parent")
        List<Child> children = new ArrayList<>();
    }

    @Entity
    @Streamed(subject = "parent", facet = "children")
    static class Child {
        @Id
        Long id;
        @ManyToOne
        Parent parent;
        String label;
    }

    @Entity
    @Access(AccessType.PROPERTY)
    static class ByProperty {
        private Long key;
        private String title;
        private boolean active;

        @Id
        public Long getKey() {
            return key;
        }

        public void setKey(Long key) {
            this.key = key;
        }

        public String getTitle() {
            return title;
        }

        public void setTitle(String title) {
            this.title = title;
        }

        public boolean isActive() {
            return active;
        }

        public void setActive(boolean active) {
            this.active = active;
        }

        @Transient
        public String getDisplay() {
            return "x";
        }
    }

    @Entity
    static class Composite {
        @EmbeddedId
        Key key;
        String note;

        static class Key implements Serializable {
            private static final long serialVersionUID = 1L;
            String region;
            Integer number;
        }
    }

    @Entity
    @jakarta.persistence.IdClass(Classed.Key.class)
    static class Classed {
        @Id
        java.util.UUID tenant;
        @Id
        Long number;

        record Key(java.util.UUID tenant, Long number) implements Serializable {
        }
    }

    @Entity
    static class Wrapped {
        @EmbeddedId
        Key key;

        static class Key implements Serializable {
            private static final long serialVersionUID = 1L;
            long value;
        }
    }

    @Entity
    @jakarta.persistence.IdClass(ByGetters.Key.class)
    static class ByGetters {
        private String region;
        private Integer number;

        @Id
        public String getRegion() {
            return region;
        }

        @Id
        public Integer getNumber() {
            return number;
        }

        record Key(String region, Integer number) implements Serializable {
        }
    }

    @Entity
    static class Unspellable {
        @EmbeddedId
        Key key;

        static class Key implements Serializable {
            private static final long serialVersionUID = 1L;
            String region;
            java.time.Instant at;
        }
    }

    @Entity
    @Streamed(subject = "label")
    static class BadSubject {
        @Id
        Long id;
        String label;
    }

    @Entity
    @Streamed(model = "test.Priced")
    static class PricedByDecimal {
        @Id
        BigDecimal price;
    }

    @Entity
    @Streamed(model = "test.Stamped")
    static class StampedByTime {
        @Id
        java.time.LocalDateTime at;
    }

    @Entity
    @Streamed(model = "test.Daily")
    static class KeyedByDay {
        @Id
        java.time.DayOfWeek day;
    }

    @Entity
    @Streamed(model = "test.Small")
    static class KeyedByByte {
        @Id
        byte id;
    }

    @Test
    void aSingleKeyOfATypeNoPathCanSpellIsRefusedNamingTheAttribute() {
        // Issue 40 item 5: such a key deployed, then every event of the model resynced every set subscription.
        for (Class<?> entity : List.of(PricedByDecimal.class, StampedByTime.class)) {
            assertThatThrownBy(() -> JpaMembers.key(entity))
                    .isInstanceOfSatisfying(StreamsException.class, e -> assertThat(e.code()).isEqualTo("capture_failed"))
                    .hasMessageContaining(entity.getName()).hasMessageContaining(entity == PricedByDecimal.class
                            ? "key price of type java.math.BigDecimal" : "key at of type java.time.LocalDateTime");
        }
        // An enum is spelled by name, but its column holds the ordinal unless mapped otherwise: a trigger reads "0".
        assertThatThrownBy(() -> JpaMembers.key(KeyedByDay.class)).hasMessageContaining("not enums");
        assertThat(EntityType.of(KeyedByByte.class).canonical("+07")).isEqualTo("7");
    }

    @Test
    void persistentValueAndReferenceAttributesAreComparedCollectionsVersionAndTransientsAreNot() {
        EntityType type = EntityType.of(Parent.class);

        assertThat(type.model).isEqualTo("test.Parent");
        assertThat(type.attributeNames()).containsExactly("name", "amount");
        assertThat(EntityType.of(Child.class).attributeNames()).containsExactly("parent", "label");
    }

    @Test
    void changedAttributesAreNamedInDeclarationOrder() {
        Parent parent = new Parent();
        parent.id = 1L;
        parent.name = "a";
        parent.amount = new BigDecimal("10.00");
        EntityType type = EntityType.of(Parent.class);
        Object[] before = type.snapshot(parent);

        parent.amount = new BigDecimal("10.0");
        assertThat(type.changedSince(before, parent)).as("equal by compareTo").isEmpty();

        parent.amount = new BigDecimal("11");
        parent.name = "b";
        parent.scratch = "ignored";
        parent.version++;
        assertThat(type.changedSince(before, parent)).containsExactly("name", "amount");
    }

    @Test
    void referencesCompareByIdentityNotByEquals() {
        Parent first = new Parent();
        first.id = 1L;
        Parent second = new Parent();
        second.id = 1L;
        Child child = new Child();
        child.id = 5L;
        child.parent = first;
        EntityType type = EntityType.of(Child.class);
        Object[] before = type.snapshot(child);

        child.parent = second;

        assertThat(type.changedSince(before, child)).containsExactly("parent");
    }

    @Test
    void partsReportOnTheirSubjectWithTheirFacet() {
        EntityType type = EntityType.of(Child.class);

        assertThat(type.isOwnSubject()).isFalse();
        assertThat(type.subject).get().extracting(a -> a.name).isEqualTo("parent");
        assertThat(type.facet).isEqualTo("children");
    }

    @Test
    void propertyAccessUsesGettersAndAttributeNames() {
        ByProperty entity = new ByProperty();
        entity.setKey(7L);
        entity.setTitle("t");
        EntityType type = EntityType.of(ByProperty.class);
        Object[] before = type.snapshot(entity);

        entity.setActive(true);

        assertThat(type.model).isEqualTo("ByProperty");
        assertThat(type.attributeNames()).containsExactlyInAnyOrder("title", "active");
        assertThat(type.changedSince(before, entity)).containsExactly("active");
        assertThat(type.pk(entity)).isEqualTo("7");
    }

    @Test
    void aCompositeKeyIsTheJsonArrayOfItsPartsInDeclaredOrderAsTheTriggerWritesIt() {
        Composite composite = new Composite();
        composite.key = new Composite.Key();
        composite.key.region = "e\"u";
        composite.key.number = 7;
        EntityType type = EntityType.of(Composite.class);
        assertThat(type.pk(composite)).isEqualTo("[\"e\\\"u\", 7]");
        assertThat(type.attributeNames()).containsExactly("note");

        Classed classed = new Classed();
        classed.tenant = java.util.UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        classed.number = 12L;
        assertThat(EntityType.of(Classed.class).pk(classed)).isEqualTo("[\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\", 12]");
    }

    @Test
    void anEmbeddedIdOfOneAttributeIsSpelledAsThatAttributeLikeItsOneKeyColumn() {
        Wrapped wrapped = new Wrapped();
        wrapped.key = new Wrapped.Key();
        wrapped.key.value = 7;
        assertThat(EntityType.of(Wrapped.class).pk(wrapped)).isEqualTo("7");
    }

    @Test
    void aCompositeKeyMappedThroughGettersIsRefusedSinceTheirOrderIsTheJvmsToChoose() {
        assertThatThrownBy(() -> EntityType.of(ByGetters.class)).isInstanceOf(StreamsException.class)
                .hasMessageContaining("through getters");
    }

    @Test
    void aCompositeKeyWhosePartsThePkCannotSpellIsRefusedNamingThePart() {
        assertThatThrownBy(() -> EntityType.of(Unspellable.class))
                .isInstanceOf(StreamsException.class)
                .hasMessageContaining(Unspellable.class.getName())
                .hasMessageContaining("part at").hasMessageContaining("java.time.Instant");
    }

    @Test
    void subjectMustNameAToOneRelationship() {
        assertThatThrownBy(() -> EntityType.of(BadSubject.class))
                .isInstanceOf(StreamsException.class)
                .hasMessageContaining("subject = \"label\"");
    }

    @Test
    void aNullIdAtCompletionIsANamedFailure() {
        assertThatThrownBy(() -> EntityType.of(Parent.class).pk(new Parent()))
                .isInstanceOf(StreamsException.class)
                .extracting(e -> ((StreamsException) e).code()).isEqualTo("capture_failed");
    }
}
