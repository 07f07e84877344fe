package io.objectstreams.internal.capture;

/** The model label of an entity class, as capture writes it into outbox rows; for the transports. */
public final class ModelLabels {

    private ModelLabels() {
    }

    /** {@code @Streamed(model)}, else the JPA entity name, else the simple class name. */
    public static String of(Class<?> entityClass) {
        return EntityType.of(entityClass).model;
    }
}
