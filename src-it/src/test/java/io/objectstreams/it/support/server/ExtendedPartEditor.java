package io.objectstreams.it.support.server;

import jakarta.ejb.Stateful;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceContextType;

/**
 * An extended persistence context, as a conversation keeps one: the part is loaded in one transaction and moved in
 * the next (the caller makes the two calls), so the transaction that moves it never saw it loaded.
 */
// Payara checkpoints passivation-capable stateful beans after each transaction, which needs serializable state.
@Stateful(passivationCapable = false)
public class ExtendedPartEditor {

    @PersistenceContext(unitName = "store", type = PersistenceContextType.EXTENDED)
    EntityManager em;

    private long partId;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void load(long partId) {
        this.partId = partId;
        em.find(ItTwinPart.class, partId);
    }

    /** The extended context still manages the part: this find returns it without loading it again. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void moveTo(long toTwin) {
        em.find(ItTwinPart.class, partId).setTwin(em.find(ItTwin.class, toTwin));
    }
}
