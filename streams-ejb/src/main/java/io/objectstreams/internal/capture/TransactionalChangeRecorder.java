package io.objectstreams.internal.capture;

import io.objectstreams.EventOperation;
import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsException;
import io.objectstreams.capture.ActionContext;
import io.objectstreams.capture.ChangeRecorder;
import io.objectstreams.internal.outbox.OutboxWriter;
import io.objectstreams.internal.outbox.WakeupNotifier;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.security.enterprise.SecurityContext;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.security.Principal;
import java.sql.Connection;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps one {@link TransactionChanges} per JTA transaction, in the transaction's own resource map, and
 * registers it as an interposed synchronization the first time the transaction touches a streamed entity.
 */
@ApplicationScoped
public class TransactionalChangeRecorder implements ChangeRecorder {

    private static final Logger LOG = Logger.getLogger(TransactionalChangeRecorder.class.getName());
    private static final Object KEY = TransactionalChangeRecorder.class;

    @Resource
    TransactionSynchronizationRegistry registry;

    @Inject
    OutboxWriter writer;

    @Inject
    WakeupNotifier notifier;

    @Inject
    Instance<SecurityContext> security;

    @Inject
    CaptureModes modes;

    @Inject
    StreamedModels models;

    /** Where each loaded part was attached, for the transaction that moves or detaches it later (G16). */
    private final PartSubjects partSubjects = new PartSubjects();

    @Override
    public void loaded(Object entity) {
        if (modes.byTrigger(entity.getClass())) {
            return;
        }
        EntityType type = EntityType.of(entity.getClass());
        if (!type.isOwnSubject()) {
            // Also outside a transaction: an extended persistence context may write the instance in a later one.
            partSubjects.remember(entity, type.subjectOf(entity));
        }
        if (isActive()) {
            changes().loaded(entity);
        }
    }

    @Override
    public void changed(Object entity, EventOperation op) {
        if (!isActive()) {
            throw new StreamsException(LibraryErrorCode.NO_TRANSACTION,
                    "A change of @Streamed entity " + entity.getClass().getName()
                    + " was flushed outside an active JTA transaction;"
                    + " Object Streams captures only transactional writes");
        }
        ActionContext action = action();
        if (modes.byTrigger(entity.getClass())) {
            // Its trigger writes the row; this transaction's rows only get the actor and correlation id.
            changes().triggerCaptured(action.actor(), action.correlationId());
        } else {
            changes().entityChanged(entity, op, action.actor(), action.correlationId());
        }
    }

    @Override
    public void beforeProviderCommit(Connection connection) {
        if (isActive() && registry.getResource(KEY) instanceof TransactionChanges changes) {
            changes.writeThrough(connection);
        }
    }

    /** Records a programmatic source event in the current transaction. */
    public void publish(SourceEvent event) {
        if (!isActive()) {
            throw new StreamsException(LibraryErrorCode.NO_TRANSACTION,
                    "StreamsPublisher.publish needs an active JTA transaction;"
                    + " call it from a transactional business method"
                    + " so the event commits or rolls back with the write");
        }
        SourceEvent spelled = models.canonical(event); // one spelling of a key, whoever writes the row (G16)
        ActionContext action = action();
        changes().published(spelled, action.actor(), action.correlationId());
    }

    private boolean isActive() {
        return registry.getTransactionStatus() == Status.STATUS_ACTIVE;
    }

    private TransactionChanges changes() {
        TransactionChanges changes = (TransactionChanges) registry.getResource(KEY);
        if (changes == null) {
            changes = new TransactionChanges(writer, notifier, this::registerLate, modes::hasPartsByTrigger,
                    partSubjects);
            registry.putResource(KEY, changes);
            registry.registerInterposedSynchronization(changes);
        }
        return changes;
    }

    /** Registers a synchronization while the transaction completes; false where the transaction manager refuses. */
    private boolean registerLate(Synchronization synchronization) {
        try {
            registry.registerInterposedSynchronization(synchronization);
            return true;
        } catch (IllegalStateException refused) {
            LOG.log(Level.FINE, "The transaction refused a synchronization during completion; writing now", refused);
            return false;
        }
    }

    /** The open {@code @StreamsAction}, or the caller as the container knows it. */
    private ActionContext action() {
        return ActionContext.current().orElseGet(() -> new ActionContext(callerName(), null));
    }

    private String callerName() {
        try {
            if (security.isResolvable()) {
                Principal caller = security.get().getCallerPrincipal();
                return caller == null ? null : caller.getName();
            }
        } catch (RuntimeException e) {
            // Outside a request (timers, startup) there may be no security context; the row simply has no actor.
            LOG.log(Level.FINE, "No caller principal available", e);
        }
        return null;
    }
}
