package io.objectstreams.internal.capture;

import io.objectstreams.StreamsException;
import io.objectstreams.Streamed;
import io.objectstreams.internal.keys.InvalidKeyText;
import io.objectstreams.internal.keys.JpaMembers;
import io.objectstreams.internal.keys.KeySpelling;
import io.objectstreams.internal.keys.PkText;
import io.objectstreams.internal.outbox.OutboxWriter;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Version;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What capture needs to know about one entity class: its model label, facet, subject attribute, id and the
 * persistent attributes whose values are compared to name what changed. Built once per class by reflection,
 * following the JPA access type (field or property), so {@code changed_fields} names attributes, never
 * columns, on every provider.
 *
 * <p>Collections are not compared: a change to a collection shows up as changes to its element entities,
 * which report themselves (through {@link Streamed#subject()}) if they are streamed.
 */
final class EntityType {

    private static final Map<Class<?>, EntityType> CACHE = new ConcurrentHashMap<>();

    final Class<?> entityClass;
    final String model;
    final String facet;
    /** The one {@code @Id}, or the {@code @EmbeddedId}, or null with an {@code @IdClass}. */
    final Attribute id;
    /** The key's parts, read from the {@code @EmbeddedId}'s value, or from the entity with an {@code @IdClass}. */
    private final List<Attribute> keyParts;
    /** The Java types of the key's parts, in order. */
    private final List<Class<?>> keyTypes;
    final Optional<Attribute> subject;
    final List<Attribute> attributes;

    private EntityType(Class<?> entityClass, String model, String facet, Attribute id, List<Attribute> keyParts,
                       List<Class<?>> keyTypes, Optional<Attribute> subject, List<Attribute> attributes) {
        this.keyTypes = keyTypes;
        this.entityClass = entityClass;
        this.model = model;
        this.facet = facet;
        this.id = id;
        this.keyParts = keyParts;
        this.subject = subject;
        this.attributes = attributes;
    }

    static EntityType of(Class<?> type) {
        return CACHE.computeIfAbsent(entityClassOf(type), EntityType::inspect);
    }

    boolean isOwnSubject() {
        return subject.isEmpty();
    }

    /**
     * The primary key of an instance as text, the form outbox rows and the protocol use: a composite key as the JSON
     * array of its parts a capture trigger writes ({@link PkText}).
     */
    String pk(Object entity) {
        Object value = id == null ? entity : id.read(entity);
        if (value != null && !keyParts.isEmpty()) {
            Object[] parts = new Object[keyParts.size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = keyParts.get(i).read(value);
                value = parts[i] == null ? null : value;
            }
            if (value != null) {
                return PkText.text(parts);
            }
        }
        if (value == null) {
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, "Cannot capture a change of " + model
                    + ": its id is still null when the transaction completes");
        }
        return KeySpelling.text(value);
    }

    /**
     * A pk of this entity as capture spells it ({@code "7"} for {@code "007"} or {@code "+7"}, a UUID in lower case, a
     * composite key with one space after each comma), or {@code null} when it can be no key of this entity.
     */
    String canonical(String pk) {
        try {
            return PkText.canonical(pk, keyTypes);
        } catch (InvalidKeyText noKey) {
            return null;
        }
    }

    /** The Java types of the key's parts, in order. */
    List<Class<?>> keyTypes() {
        return keyTypes;
    }

    /** A part's subject as model and pk, or null when it is attached to none. */
    OutboxWriter.Subject subjectOf(Object part) {
        Object target = subject.orElseThrow().read(part);
        if (target == null) {
            return null;
        }
        EntityType subjectType = of(target.getClass());
        return new OutboxWriter.Subject(subjectType.model, subjectType.pk(target));
    }

    Object[] snapshot(Object entity) {
        Object[] values = new Object[attributes.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = attributes.get(i).comparable(entity);
        }
        return values;
    }

    /** Names of the attributes whose value differs from the snapshot, in declaration order. */
    List<String> changedSince(Object[] snapshot, Object entity) {
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < snapshot.length; i++) {
            Attribute attribute = attributes.get(i);
            if (!Attribute.same(snapshot[i], attribute.comparable(entity))) {
                changed.add(attribute.name);
            }
        }
        return changed;
    }

    List<String> attributeNames() {
        return attributes.stream().map(a -> a.name).toList();
    }

    int indexOf(Attribute attribute) {
        return attributes.indexOf(attribute);
    }

    // Providers may hand callbacks a subclass (proxies, enhanced classes); the mapping lives on the @Entity class.
    private static Class<?> entityClassOf(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(Entity.class)) {
                return c;
            }
        }
        throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, type.getName() + " is not a JPA entity");
    }

    private static EntityType inspect(Class<?> entityClass) {
        Streamed streamed = entityClass.getAnnotation(Streamed.class);
        JpaMembers.Key key = JpaMembers.key(entityClass);
        boolean fieldAccess = JpaMembers.usesFieldAccess(entityClass);
        List<Attribute> attributes = new ArrayList<>();
        Attribute id = null;
        for (Class<?> c = entityClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (AccessibleObject member : fieldAccess ? List.<AccessibleObject>of(c.getDeclaredFields())
                    : JpaMembers.getters(c)) {
                if (!JpaMembers.isPersistent(member)) {
                    continue;
                }
                Attribute attribute = Attribute.of(member, getterFor(c, member));
                if (member.isAnnotationPresent(Id.class) || member.isAnnotationPresent(EmbeddedId.class)) {
                    id = attribute;
                } else if (attribute.kind != Attribute.Kind.COLLECTION && !member.isAnnotationPresent(Version.class)) {
                    attributes.add(attribute);
                }
            }
        }
        if (id == null) {
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED,
                    entityClass.getName() + " has no @Id attribute");
        }
        List<Attribute> keyParts = new ArrayList<>();
        if (key.composite() || key.embeddedId() != null) {
            for (AccessibleObject part : key.components()) {
                keyParts.add(Attribute.of(part, key.embeddedId() != null ? null
                        : getterFor(((Member) part).getDeclaringClass(), part)));
            }
            id = key.embeddedId() != null ? id : null;
        }
        Optional<Attribute> subject = Optional.empty();
        String model = modelLabel(entityClass, streamed);
        String facet = streamed == null ? Streamed.OBJECT_FACET : streamed.facet();
        if (streamed != null && !streamed.subject().isEmpty()) {
            subject = Optional.of(attributes.stream()
                    .filter(a -> a.name.equals(streamed.subject()) && a.kind == Attribute.Kind.REFERENCE)
                    .findFirst()
                    .orElseThrow(() -> new StreamsException(LibraryErrorCode.CAPTURE_FAILED, "@Streamed(subject = \""
                            + streamed.subject() + "\") on " + entityClass.getName()
                            + " must name a to-one relationship attribute of that entity")));
        }
        return new EntityType(entityClass, model, facet, id, List.copyOf(keyParts), key.types(), subject,
                List.copyOf(attributes));
    }

    private static String modelLabel(Class<?> entityClass, Streamed streamed) {
        if (streamed != null && !streamed.model().isEmpty()) {
            return streamed.model();
        }
        String name = entityClass.getAnnotation(Entity.class).name();
        return name.isEmpty() ? entityClass.getSimpleName() : name;
    }

    /** A getter for the id lets a lazy proxy answer without being initialised; fields of a proxy are empty. */
    private static Method getterFor(Class<?> c, AccessibleObject member) {
        if (member instanceof Method method) {
            return method;
        }
        String name = ((Field) member).getName();
        String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String candidate : new String[] {"get" + suffix, "is" + suffix}) {
            try {
                return c.getDeclaredMethod(candidate);
            } catch (NoSuchMethodException ignored) {
                // try the next spelling
            }
        }
        return null;
    }
}
