package io.objectstreams;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a business method (or every method of a bean) as an action whose captured changes carry the
 * acting principal and a correlation id in their outbox metadata.
 *
 * <p>The outermost annotated call on a thread opens the action: it takes the caller principal from the
 * container and a fresh correlation id; nested calls join it. Delivery later turns the actor into a
 * per-subscriber {@code own} flag, so a client can recognise the echo of its own write.
 */
@Documented
@Inherited
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface StreamsAction {
}
