package io.objectstreams.capture;

import io.objectstreams.EventOperation;

/**
 * Receives what the entity listener sees, for the transaction it happens in. Implemented by the
 * {@code streams-ejb} module; applications neither implement nor call it.
 */
public interface ChangeRecorder {

    /** An entity instance was loaded: remember its state so a later update can name what changed. */
    void loaded(Object entity);

    /** An entity instance was inserted, is about to be updated, or was deleted in the current transaction. */
    void changed(Object entity, EventOperation op);
}
