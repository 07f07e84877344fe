package io.objectstreams.capture;

import io.objectstreams.EventOperation;
import java.sql.Connection;

/**
 * Receives what the entity listener sees, for the transaction it happens in. Implemented by the
 * {@code streams-ejb} module; applications neither implement nor call it.
 */
public interface ChangeRecorder {

    /** An entity instance was loaded: remember its state so a later update can name what changed. */
    void loaded(Object entity);

    /** An entity instance was inserted, is about to be updated, or was deleted in the current transaction. */
    void changed(Object entity, EventOperation op);

    /**
     * The persistence provider is about to commit the current transaction's writes through {@code connection}.
     * The changes recorded so far are written through that same connection, so they commit with the business
     * data whatever the server's rules for sharing connections (G1). The connection stays open; nothing happens
     * outside a transaction or when nothing was recorded.
     */
    void beforeProviderCommit(Connection connection);
}
