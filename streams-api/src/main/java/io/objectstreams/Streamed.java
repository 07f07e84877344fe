package io.objectstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a JPA entity whose committed changes are recorded in the outbox and streamed to subscribers.
 *
 * <p>By default the entity is its own subject: a change to it is reported under its model label
 * (the JPA entity name unless {@link #model()} says otherwise), its primary key and the facet
 * {@value #OBJECT_FACET}. An entity that is part of another object (an order line of an order) names
 * that object with {@link #subject()}; its changes are then reported on the subject, with {@link #facet()}
 * saying which part changed.
 *
 * <p>Capture needs the mapping file {@code META-INF/object-streams-orm.xml} listed in the persistence
 * unit; see the capture documentation. An entity whose table is also written outside JPA (native SQL, batch jobs,
 * other services) can be captured by a PostgreSQL trigger instead, with {@link #capture()}.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Streamed {

    /** The facet of changes to the object itself. */
    String OBJECT_FACET = "object";

    /**
     * The model label subscribers use, such as {@code store.CustomerOrder}. Empty means the JPA entity
     * name. Ignored when {@link #subject()} is set: the subject's label is used.
     */
    String model() default "";

    /**
     * The name of a to-one attribute of this entity that refers to the subject its changes are reported
     * on. Empty means the entity is its own subject. The referenced entity must itself be {@code @Streamed}.
     */
    String subject() default "";

    /**
     * The facet reported for this entity's changes. Defaults to {@value #OBJECT_FACET} for an entity
     * that is its own subject; an entity with a {@link #subject()} should name the part it represents,
     * such as {@code lines}.
     */
    String facet() default OBJECT_FACET;

    /**
     * Who writes this entity's outbox rows. {@link Capture#DEFAULT} leaves it to the setting
     * {@code streams.capture.<model>} ({@code listener} unless it says {@code trigger}); the other two fix it here,
     * and a setting that says otherwise fails deployment.
     */
    Capture capture() default Capture.DEFAULT;

    /** How an entity's changes reach the outbox. Each entity has exactly one. */
    enum Capture {
        /** As the setting {@code streams.capture.<model>} says; the entity listener when it says nothing. */
        DEFAULT,
        /** The entity listener: JPA writes only. */
        LISTENER,
        /**
         * A trigger on the entity's table, generated from its mapping: every write, JPA or not. The entity listener
         * writes no row for it, and only adds the actor and correlation id to the rows the trigger wrote.
         */
        TRIGGER
    }
}
