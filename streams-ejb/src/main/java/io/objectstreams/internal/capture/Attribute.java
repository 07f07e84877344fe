package io.objectstreams.internal.capture;

import io.objectstreams.internal.keys.JpaMembers;
import jakarta.persistence.Entity;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/** One persistent attribute of an entity class, readable from an instance. */
final class Attribute {

    enum Kind { VALUE, REFERENCE, COLLECTION }

    final String name;
    final Kind kind;
    private final AccessibleObject member;
    private final Method getter;

    private Attribute(String name, Kind kind, AccessibleObject member, Method getter) {
        this.name = name;
        this.kind = kind;
        this.member = member;
        this.getter = getter;
    }

    static Attribute of(AccessibleObject member, Method getter) {
        Class<?> type = member instanceof Field f ? f.getType() : ((Method) member).getReturnType();
        String name = member instanceof Field f ? f.getName() : JpaMembers.propertyName((Method) member);
        Kind kind;
        if (JpaMembers.annotated(member, JpaMembers.COLLECTIONS) || Collection.class.isAssignableFrom(type)
                || Map.class.isAssignableFrom(type)) {
            kind = Kind.COLLECTION;
        } else if (JpaMembers.annotated(member, JpaMembers.REFERENCES) || type.isAnnotationPresent(Entity.class)) {
            kind = Kind.REFERENCE;
        } else {
            kind = Kind.VALUE;
        }
        member.setAccessible(true);
        if (getter != null) {
            getter.setAccessible(true);
        }
        return new Attribute(name, kind, member, getter);
    }

    /** The attribute's value as stored on the instance. */
    Object read(Object entity) {
        return invoke(getter != null ? getter : member, entity);
    }

    /**
     * The value compared between snapshot and flush. Field access reads the field directly, so taking a
     * snapshot never triggers lazy loading; references compare by identity of the referenced instance,
     * which is stable within one persistence context.
     */
    Object comparable(Object entity) {
        Object value = invoke(member, entity);
        return kind == Kind.REFERENCE && value != null ? new Identity(value) : value;
    }

    private Object invoke(AccessibleObject source, Object entity) {
        try {
            return source instanceof Field f ? f.get(entity) : ((Method) source).invoke(entity);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + name + " of " + entity.getClass().getName(), e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Reading " + name + " of " + entity.getClass().getName() + " failed",
                    e.getCause());
        }
    }

    static boolean same(Object before, Object after) {
        if (before instanceof BigDecimal a && after instanceof BigDecimal b) {
            return a.compareTo(b) == 0;
        }
        if (before instanceof byte[] a && after instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        return Objects.equals(before, after);
    }

    /** Wraps a referenced entity so equality is identity, whatever the entity's own equals does. */
    record Identity(Object target) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Identity that && that.target == target;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(target);
        }
    }
}
