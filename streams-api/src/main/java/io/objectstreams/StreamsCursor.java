package io.objectstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a {@code Streams-Cursor} header on the responses of a JAX-RS resource class or method: a cursor taken before
 * the resource reads its data. A client that loads data and then subscribes from that cursor misses no change
 * committed in between; at worst it hears of a change its data already shows. To put the header on every
 * JAX-RS response of the application instead, set {@code streams.rest.cursor-header=true}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface StreamsCursor {

    /** The response header's name. */
    String HEADER = "Streams-Cursor";
}
