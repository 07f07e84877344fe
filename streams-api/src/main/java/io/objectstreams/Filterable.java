package io.objectstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares an attribute of a {@code @Streamed} entity that filter subscriptions may constrain, and the lookups
 * they may use on it. Put it on the persistent field; the filter key is the attribute name for {@link Lookup#EXACT}
 * and {@code name__lookup} for the others ({@code total__gte}, {@code status__in}, {@code note__isnull}).
 *
 * <p>Attributes without this annotation cannot be filtered on: a filter naming one is refused with
 * {@code invalid_filter}. Filters are applied on top of the model's {@link VisibilityPolicy}, never instead of it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Filterable {

    /** The lookups allowed on this attribute. Range lookups need a comparable type (numbers, text, dates). */
    Lookup[] value() default {Lookup.EXACT, Lookup.IN};
}
