package io.objectstreams;

/**
 * Records source events in the current JTA transaction, for writes that JPA entity listeners cannot see:
 * bulk JPQL or Criteria updates and deletes, native SQL, or a change whose subject is another object.
 *
 * <p>Inject it with {@code @Inject StreamsPublisher publisher}. Events are buffered with the changes the
 * entity listener captured in the same transaction, coalesced with them, and written in the same single
 * batched insert just before commit. A rollback discards them.
 */
public interface StreamsPublisher {

    /**
     * Records one source event in the current transaction.
     *
     * @throws StreamsException with code {@code no_transaction} when no JTA transaction is active
     */
    void publish(SourceEvent event);
}
