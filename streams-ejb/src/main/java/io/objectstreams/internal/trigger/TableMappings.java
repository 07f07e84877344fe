package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.keys.JpaMembers;
import io.objectstreams.Streamed;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.persistence.AttributeOverride;
import jakarta.persistence.AttributeOverrides;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Embeddable;
import jakarta.persistence.Embedded;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Inheritance;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinColumns;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.lang.reflect.AccessibleObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a {@link TableMapping} from an entity's JPA annotations, with the names JPA gives by default: an unquoted
 * name is folded to lower case, as PostgreSQL folds it (both EclipseLink and Hibernate leave names unquoted), and a
 * quoted one is kept as it is. A provider configured to name things otherwise (a Hibernate naming strategy) is
 * caught when the mapping is checked against the table ({@link TriggerCatalog}), with the column to name.
 *
 * <p>{@code changed_fields} names attributes exactly as the entity listener does: every persistent attribute but
 * the id, the version and collections; an embedded attribute is one name over all its columns. Large objects
 * ({@code @Lob}) are left out of the comparison. A to-one reference compares its join columns.
 */
public final class TableMappings {

    private TableMappings() {
    }

    /** The mapping of {@code entityClass}, a {@code @Streamed} entity; a mapping triggers cannot follow is refused. */
    public static TableMapping of(Class<?> entityClass) {
        Streamed streamed = entityClass.getAnnotation(Streamed.class);
        if (streamed == null || !entityClass.isAnnotationPresent(Entity.class)) {
            throw refused(entityClass, "it is not a @Streamed entity");
        }
        refuseInheritance(entityClass);
        JpaMembers.key(entityClass); // refuses a composite key the pk cannot spell
        boolean fields = JpaMembers.usesFieldAccess(entityClass);
        List<String> keys = new ArrayList<>();
        Map<String, List<String>> attributes = new LinkedHashMap<>();
        Map<String, AccessibleObject> references = new LinkedHashMap<>();
        readMembers(entityClass, fields, keys, attributes, references);
        if (keys.isEmpty()) {
            throw refused(entityClass, "it has no @Id or @EmbeddedId attribute");
        }
        Table table = entityClass.getAnnotation(Table.class);
        String tableName = table != null && !table.name().isEmpty() ? table.name() : entityName(entityClass);
        String schema = table != null && !table.schema().isEmpty() ? name(table.schema()) : null;
        if (streamed.subject().isEmpty()) {
            return new TableMapping(entityClass.getName(), schema, name(tableName), keys, modelLabel(entityClass),
                    streamed.facet(), false, keys, attributes);
        }
        AccessibleObject reference = references.get(streamed.subject());
        if (reference == null) {
            throw refused(entityClass, "@Streamed(subject = \"" + streamed.subject()
                    + "\") must name a to-one relationship attribute that owns its join column");
        }
        Class<?> subject = referenceType(entityClass, streamed.subject(), fields);
        List<String> subjectColumns = keyReference(entityClass, reference, streamed.subject(), subject);
        if (!subject.isAnnotationPresent(Streamed.class)) {
            throw refused(entityClass, "its subject " + subject.getName() + " is not @Streamed");
        }
        return new TableMapping(entityClass.getName(), schema, name(tableName), keys, modelLabel(subject),
                streamed.facet(), true, subjectColumns, attributes);
    }

    /** Refuses an entity in a JPA inheritance hierarchy, as a subclass or as its root: triggers do not map one. */
    private static void refuseInheritance(Class<?> entityClass) {
        for (Class<?> c = entityClass.getSuperclass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(Entity.class)) {
                throw refused(entityClass, "it inherits from entity " + c.getName());
            }
        }
        if (entityClass.isAnnotationPresent(Inheritance.class)) {
            throw refused(entityClass, "it is the root of an inheritance hierarchy");
        }
    }

    /**
     * Sorts the persistent attributes of {@code entityClass} as a trigger reads them: the key's columns into
     * {@code keys}, each compared attribute's columns into {@code attributes}, and each owning to-one reference, which
     * a part may name as its subject, into {@code references} as well.
     */
    private static void readMembers(Class<?> entityClass, boolean fields, List<String> keys,
                                    Map<String, List<String>> attributes, Map<String, AccessibleObject> references) {
        for (AccessibleObject member : JpaMembers.persistentMembers(entityClass, fields)) {
            String name = JpaMembers.attributeName(member);
            if (member.isAnnotationPresent(EmbeddedId.class)) {
                keys.addAll(embeddedColumns(JpaMembers.type(member), member, ""));
            } else if (member.isAnnotationPresent(Id.class)) {
                keys.add(column(member, name));
            } else if (member.isAnnotationPresent(Version.class) || member.isAnnotationPresent(Lob.class)
                    || isCollection(member)) {
                continue;
            } else if (member.isAnnotationPresent(ManyToOne.class) || member.isAnnotationPresent(OneToOne.class)) {
                OneToOne one = member.getAnnotation(OneToOne.class);
                if (one == null || one.mappedBy().isEmpty()) {
                    references.put(name, member);
                    attributes.put(name, joinColumns(member, name, JpaMembers.type(member)));
                }
            } else if (member.isAnnotationPresent(Embedded.class)
                    || JpaMembers.type(member).isAnnotationPresent(Embeddable.class)) {
                attributes.put(name, embeddedColumns(JpaMembers.type(member), member, ""));
            } else {
                attributes.put(name, List.of(column(member, name)));
            }
        }
    }

    /** {@code @Streamed(model)}, else the JPA entity name: the label the entity listener writes. */
    public static String modelLabel(Class<?> entityClass) {
        Streamed streamed = entityClass.getAnnotation(Streamed.class);
        return streamed != null && !streamed.model().isEmpty() ? streamed.model() : entityName(entityClass);
    }

    /** The JPA entity name: {@code @Entity(name)}, else the simple class name. */
    public static String entityName(Class<?> entityClass) {
        Entity entity = entityClass.getAnnotation(Entity.class);
        return entity != null && !entity.name().isEmpty() ? entity.name() : entityClass.getSimpleName();
    }

    /** A name as PostgreSQL holds it: unquoted names fold to lower case, quoted ones are kept. */
    static String name(String declared) {
        if (declared.length() > 1 && (declared.startsWith("\"") && declared.endsWith("\"")
                || declared.startsWith("`") && declared.endsWith("`"))) {
            return declared.substring(1, declared.length() - 1);
        }
        return declared.toLowerCase(Locale.ROOT);
    }

    private static String column(AccessibleObject member, String attribute) {
        Column column = member.getAnnotation(Column.class);
        return name(column != null && !column.name().isEmpty() ? column.name() : attribute);
    }

    /** An embeddable's columns, nested ones included, with the embedding member's overrides applied. */
    private static List<String> embeddedColumns(Class<?> embeddable, AccessibleObject embedding, String prefix) {
        Map<String, Column> overrides = new LinkedHashMap<>();
        AttributeOverrides many = embedding.getAnnotation(AttributeOverrides.class);
        for (AttributeOverride one : many != null ? many.value()
                : embedding.getAnnotationsByType(AttributeOverride.class)) {
            overrides.put(one.name(), one.column());
        }
        List<String> columns = new ArrayList<>();
        for (AccessibleObject member : JpaMembers.persistentMembers(embeddable,
                JpaMembers.usesFieldAccess(embeddable))) {
            String path = prefix + JpaMembers.attributeName(member);
            if (isCollection(member) || member.isAnnotationPresent(Lob.class)) {
                continue;
            }
            if (member.isAnnotationPresent(ManyToOne.class) || member.isAnnotationPresent(OneToOne.class)) {
                throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED,
                        "Trigger capture cannot map the relationship " + path
                        + " inside embeddable " + embeddable.getName()
                        + "; capture its entity with the entity listener");
            }
            if (member.isAnnotationPresent(Embedded.class)
                    || JpaMembers.type(member).isAnnotationPresent(Embeddable.class)) {
                columns.addAll(embeddedColumns(JpaMembers.type(member), member, path + "."));
                continue;
            }
            Column override = overrides.get(path.substring(prefix.length()));
            columns.add(override != null && !override.name().isEmpty() ? name(override.name())
                    : column(member, JpaMembers.attributeName(member)));
        }
        return columns;
    }

    /** A to-one reference's join columns: as declared, or JPA's default {@code <attribute>_<referenced key>}. */
    private static List<String> joinColumns(AccessibleObject member, String attribute, Class<?> target) {
        JoinColumns many = member.getAnnotation(JoinColumns.class);
        JoinColumn[] declared = many != null ? many.value() : member.getAnnotationsByType(JoinColumn.class);
        List<String> columns = new ArrayList<>();
        for (JoinColumn join : declared) {
            if (join.name().isEmpty()) {
                columns.clear();
                break;
            }
            columns.add(name(join.name()));
        }
        if (!columns.isEmpty()) {
            return columns;
        }
        List<String> targetKeys = keyColumns(target);
        if (targetKeys.size() != 1) {
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED,
                    "Trigger capture needs @JoinColumns naming every column of "
                    + attribute + ", a reference to " + target.getName() + ", which has a composite key");
        }
        return List.of(name(attribute + "_" + targetKeys.get(0)));
    }

    /**
     * The join columns of the reference to a part's subject, in the order of the subject's key, whose value is the
     * subject's pk: a join column that references another column (a {@code referencedColumnName} not of the key)
     * cannot give it, and is refused.
     */
    private static List<String> keyReference(Class<?> owner, AccessibleObject member, String attribute,
                                             Class<?> target) {
        JoinColumns many = member.getAnnotation(JoinColumns.class);
        JoinColumn[] declared = many != null ? many.value() : member.getAnnotationsByType(JoinColumn.class);
        if (Arrays.stream(declared).allMatch(join -> join.referencedColumnName().isEmpty())) {
            return joinColumns(member, attribute, target);
        }
        List<String> targetKeys = keyColumns(target);
        String[] ordered = new String[targetKeys.size()];
        for (JoinColumn join : declared) {
            String referenced = name(join.referencedColumnName());
            int at = join.referencedColumnName().isEmpty() && targetKeys.size() == 1 ? 0
                    : targetKeys.indexOf(referenced);
            if (at < 0) {
                throw refused(owner, "its subject reference " + attribute + " joins on column "
                        + join.referencedColumnName() + " of " + target.getName() + ", not on its key " + targetKeys
                        + ": the subject's pk is its key");
            }
            ordered[at] = join.name().isEmpty() ? name(attribute + "_" + targetKeys.get(at)) : name(join.name());
        }
        if (Arrays.asList(ordered).contains(null)) {
            throw refused(owner, "its subject reference " + attribute + " does not join on every column of the key "
                    + targetKeys + " of " + target.getName());
        }
        return List.of(ordered);
    }

    /** The primary key's columns of an entity, in declared order; nothing else of its mapping is read. */
    private static List<String> keyColumns(Class<?> entityClass) {
        List<String> keys = new ArrayList<>();
        for (AccessibleObject member : JpaMembers.persistentMembers(entityClass,
                JpaMembers.usesFieldAccess(entityClass))) {
            if (member.isAnnotationPresent(EmbeddedId.class)) {
                keys.addAll(embeddedColumns(JpaMembers.type(member), member, ""));
            } else if (member.isAnnotationPresent(Id.class)) {
                keys.add(column(member, JpaMembers.attributeName(member)));
            }
        }
        return keys;
    }

    private static Class<?> referenceType(Class<?> entityClass, String attribute, boolean fields) {
        for (AccessibleObject member : JpaMembers.persistentMembers(entityClass, fields)) {
            if (JpaMembers.attributeName(member).equals(attribute)) {
                return JpaMembers.type(member);
            }
        }
        throw refused(entityClass, "it has no attribute " + attribute);
    }

    private static boolean isCollection(AccessibleObject member) {
        return member.isAnnotationPresent(OneToMany.class) || member.isAnnotationPresent(ManyToMany.class)
                || member.isAnnotationPresent(ElementCollection.class)
                || Collection.class.isAssignableFrom(JpaMembers.type(member))
                || Map.class.isAssignableFrom(JpaMembers.type(member));
    }

    private static StreamsException refused(Class<?> entityClass, String why) {
        return new StreamsException(LibraryErrorCode.CAPTURE_FAILED,
                "Trigger capture cannot map " + entityClass.getName() + ": " + why
                + " (docs/capture.md, \"Trigger capture\")");
    }
}
