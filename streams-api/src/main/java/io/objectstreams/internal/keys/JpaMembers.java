package io.objectstreams.internal.keys;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.keys.KeySpelling;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.persistence.Access;
import jakarta.persistence.AccessType;
import jakarta.persistence.Convert;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Embedded;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import jakarta.persistence.Transient;
import java.beans.Introspector;
import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * How a field or getter of an entity class reads as a JPA attribute: its property name, whether it is persistent,
 * its mapping annotations, and whether the class is mapped through fields or getters. Shared by the entity
 * listener's view of an entity ({@code EntityType}), the trigger's ({@code TableMappings}) and the visibility
 * queries' view of an entity's key ({@code SubjectId}), in streams-ejb and streams-web.
 */
public final class JpaMembers {

    private JpaMembers() {
    }

    /** The attribute a getter reads ({@code getX}, or {@code isX} of a flag); null for any other method. */
    public static String propertyName(Method method) {
        String name = method.getName();
        if (name.startsWith("get") && name.length() > 3) {
            return Introspector.decapitalize(name.substring(3));
        }
        if (name.startsWith("is") && name.length() > 2
                && (method.getReturnType() == boolean.class || method.getReturnType() == Boolean.class)) {
            return Introspector.decapitalize(name.substring(2));
        }
        return null;
    }

    /** A field's name, or a getter's property. */
    public static String attributeName(AccessibleObject member) {
        return member instanceof Method method ? propertyName(method) : ((Field) member).getName();
    }

    /** A field's type, or a getter's return type. */
    public static Class<?> type(AccessibleObject member) {
        return member instanceof Method method ? method.getReturnType() : ((Field) member).getType();
    }

    /** Whether the member is mapped: neither static, transient nor synthetic, nor a provider's woven field. */
    public static boolean isPersistent(AccessibleObject member) {
        int modifiers = ((Member) member).getModifiers();
        String name = ((Member) member).getName();
        return !Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !((Member) member).isSynthetic()
                && !member.isAnnotationPresent(Transient.class) && !name.startsWith("_persistence_")
                && !name.startsWith("$$_hibernate_");
    }

    /** The class's getters, in declaration order. */
    public static List<AccessibleObject> getters(Class<?> c) {
        List<AccessibleObject> getters = new ArrayList<>();
        for (Method method : c.getDeclaredMethods()) {
            if (method.getParameterCount() == 0 && propertyName(method) != null) {
                getters.add(method);
            }
        }
        return getters;
    }

    /**
     * Whether the entity is mapped through its fields: {@code @Access} when given, else where the first class up
     * the hierarchy that has one puts its {@code @Id} or {@code @EmbeddedId}.
     */
    public static boolean usesFieldAccess(Class<?> entityClass) {
        for (Class<?> c = entityClass; c != null && c != Object.class; c = c.getSuperclass()) {
            Access access = c.getAnnotation(Access.class);
            if (access != null) {
                return access.value() == AccessType.FIELD;
            }
            for (Field field : c.getDeclaredFields()) {
                if (field.isAnnotationPresent(Id.class) || field.isAnnotationPresent(EmbeddedId.class)) {
                    return true;
                }
            }
            for (Method method : c.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Id.class) || method.isAnnotationPresent(EmbeddedId.class)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * What makes up an entity's key, in declared order (superclasses' first): the attributes of its
     * {@code @EmbeddedId}'s class, or its {@code @Id} attributes (several, with an {@code @IdClass}), or its one
     * {@code @Id}.
     *
     * @param embeddedId the {@code @EmbeddedId} member, or {@code null}
     * @param components the key's parts: of the embeddable's class when embedded, of the entity's otherwise
     */
    public record Key(AccessibleObject embeddedId, List<AccessibleObject> components) {

        /**
         * Whether the pk is a JSON array of the parts ({@link io.objectstreams.internal.keys.PkText}): with more
         * than one. An
         * {@code @EmbeddedId} of one attribute is spelled as that attribute, as its table's one key column is.
         */
        public boolean composite() {
            return components.size() > 1;
        }

        /** The parts' Java types, in order. */
        public List<Class<?>> types() {
            return components.stream().<Class<?>>map(JpaMembers::type).toList();
        }
    }

    /**
     * The key of an entity class; a key whose parts the pk cannot spell the same way on every path (a type
     * {@link KeySpelling} does not spell, an enum, a converter, or a reference) is refused, naming the part. A single
     * key of another type would deploy, and then no event of its model could reach a subscription (G16).
     */
    public static Key key(Class<?> entityClass) {
        boolean fields = usesFieldAccess(entityClass);
        AccessibleObject embedded = null;
        List<AccessibleObject> parts = new ArrayList<>();
        for (AccessibleObject member : persistentMembers(entityClass, fields)) {
            if (member.isAnnotationPresent(EmbeddedId.class)) {
                embedded = member;
                parts.addAll(persistentMembers(type(member), usesFieldAccess(type(member))));
            } else if (member.isAnnotationPresent(Id.class)) {
                parts.add(member);
            }
        }
        Key key = new Key(embedded, List.copyOf(parts));
        for (AccessibleObject part : parts) {
            refuseUnspellable(entityClass, part, key.composite());
            if (key.composite() && part instanceof Method) {
                // The order of a class's methods is the JVM's to choose: the pk's order could differ between runs.
                throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED,
                        entityClass.getName() + " maps its composite key"
                        + " through getters; map the key's parts through fields, whose declared order the pk follows");
            }
        }
        return key;
    }

    private static void refuseUnspellable(Class<?> entityClass, AccessibleObject part, boolean composite) {
        boolean converted = part.isAnnotationPresent(Convert.class);
        // An enum is spelled by its name, but its column may hold the ordinal (JPA's default), which a trigger reads.
        if (KeySpelling.supports(type(part)) && !type(part).isEnum() && !annotated(part, REFERENCES) && !converted) {
            return;
        }
        throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, entityClass.getName() + (composite
                ? " has a composite key whose part " + attributeName(part) + " is of type "
                : " has a key " + attributeName(part) + " of type ") + type(part).getName()
                + (converted ? " with a converter" : "") + "; a key" + (composite ? "'s parts" : "")
                + " may be text, whole numbers, booleans, UUIDs or dates (not enums), stored as such, so that every"
                + " capture path and every subscription spells it alike (docs/capture.md)");
    }

    /** The persistent members of a class and its superclasses, superclasses' first, each in declaration order. */
    public static List<AccessibleObject> persistentMembers(Class<?> type, boolean fields) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            chain.add(0, c);
        }
        List<AccessibleObject> members = new ArrayList<>();
        for (Class<?> c : chain) {
            for (AccessibleObject member : fields ? List.<AccessibleObject>of(c.getDeclaredFields()) : getters(c)) {
                if (isPersistent(member)) {
                    members.add(member);
                }
            }
        }
        return members;
    }

    /** Whether {@code member} carries any of {@code annotations}. */
    public static boolean annotated(AccessibleObject member, List<Class<? extends Annotation>> annotations) {
        return annotations.stream().anyMatch(member::isAnnotationPresent);
    }

    /** The mappings of a reference to one other entity. */
    public static final List<Class<? extends Annotation>> REFERENCES = List.of(ManyToOne.class, OneToOne.class);
    /** The mappings of a collection: of other entities, or of basic or embeddable values. */
    public static final List<Class<? extends Annotation>> COLLECTIONS =
            List.of(OneToMany.class, ManyToMany.class, ElementCollection.class);
    /** The mapping of an embedded value. */
    public static final List<Class<? extends Annotation>> EMBEDDED = List.of(Embedded.class);

}
