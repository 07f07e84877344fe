package io.objectstreams.internal.capture;

import jakarta.persistence.ElementCollection;
import jakarta.persistence.Embedded;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import java.beans.Introspector;
import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.util.List;

/** How a field or getter of an entity class reads as a JPA attribute: its property name and its mapping annotations. */
final class JpaMembers {

    private JpaMembers() {
    }

    static String propertyName(Method method) {
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

    static boolean annotated(AccessibleObject member, List<Class<? extends Annotation>> annotations) {
        return annotations.stream().anyMatch(member::isAnnotationPresent);
    }

    static final List<Class<? extends Annotation>> REFERENCES = List.of(ManyToOne.class, OneToOne.class);
    static final List<Class<? extends Annotation>> COLLECTIONS =
            List.of(OneToMany.class, ManyToMany.class, ElementCollection.class);
    static final List<Class<? extends Annotation>> EMBEDDED = List.of(Embedded.class);

}
