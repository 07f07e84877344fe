package io.objectstreams.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.Streamed;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.PostRemove;
import jakarta.persistence.PreUpdate;

/**
 * The JPA default entity listener that captures changes to {@link Streamed} entities. It is registered
 * for a persistence unit by listing {@code META-INF/object-streams-orm.xml} as a mapping file; entities
 * without {@code @Streamed} pass through untouched.
 *
 * <p>Lifecycle callbacks must not use the EntityManager, so this listener only hands the instance to the
 * {@link ChangeRecorder}, which buffers it on the current transaction.
 */
public class StreamsEntityListener {

    @Inject
    ChangeRecorder recorder;

    @PostLoad
    void afterLoad(Object entity) {
        if (isStreamed(entity)) {
            recorder().loaded(entity);
        }
    }

    @PostPersist
    void afterPersist(Object entity) {
        if (isStreamed(entity)) {
            recorder().changed(entity, EventOperation.CREATED);
        }
    }

    // Before, not after: the recorder compares the new state with the loaded one while both are known.
    @PreUpdate
    void beforeUpdate(Object entity) {
        if (isStreamed(entity)) {
            recorder().changed(entity, EventOperation.UPDATED);
        }
    }

    @PostRemove
    void afterRemove(Object entity) {
        if (isStreamed(entity)) {
            recorder().changed(entity, EventOperation.DELETED);
        }
    }

    private static boolean isStreamed(Object entity) {
        return entity.getClass().isAnnotationPresent(Streamed.class);
    }

    // A provider that instantiates listeners without CDI (none of the supported ones do) still works.
    private ChangeRecorder recorder() {
        if (recorder == null) {
            recorder = CDI.current().select(ChangeRecorder.class).get();
        }
        return recorder;
    }
}
