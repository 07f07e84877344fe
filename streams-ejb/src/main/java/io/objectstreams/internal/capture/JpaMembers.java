package io.objectstreams.internal.capture;

import jakarta.persistence.Access;
import jakarta.persistence.AccessType;
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
 * listener's view of an entity ({@link EntityType}) and the trigger's ({@code TableMappings}).
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

    static boolean annotated(AccessibleObject member, List<Class<? extends Annotation>> annotations) {
        return annotations.stream().anyMatch(member::isAnnotationPresent);
    }

    static final List<Class<? extends Annotation>> REFERENCES = List.of(ManyToOne.class, OneToOne.class);
    static final List<Class<? extends Annotation>> COLLECTIONS =
            List.of(OneToMany.class, ManyToMany.class, ElementCollection.class);
    static final List<Class<? extends Annotation>> EMBEDDED = List.of(Embedded.class);

}
