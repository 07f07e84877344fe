package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.DecidingAttributes;
import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import io.objectstreams.StreamGap;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.web.testing.DeliveryFaults;
import io.objectstreams.web.visibility.Visibility;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns each {@link StreamBatch} into subscription-relative messages for the subscriptions of its index (G8, G9), and
 * each {@link StreamGap} into resyncs (G10, G11). The sessions it is given are those a gap, or a batch whose fan-out
 * failed, may concern: all of this instance's.
 *
 * <p>Cost per batch: the subscriptions its events may concern are found through the {@link DispatchIndex} (by object,
 * by the keys a keyed scope holds, by the members it holds), and decided together per (model, filter): one query under
 * a keyed policy, one per {@code streams.visibility.viewers-per-query} viewers otherwise ({@code Visibility#matching}).
 * Under a keyed policy, the work follows the subscriptions the events may be owed to, not the number held; under any
 * other, each set subscription of a model is visited at each event of it, as its viewer's predicate must be asked.
 *
 * <p>Never silent (G10): when a scope's query fails, or the fan-out of a batch fails altogether, every subscription
 * that may have been owed an event of that batch gets {@code resync_required} ({@code delivery_failed}) before
 * anything later is sent to it. A session that cannot even be told is handed to {@code ended}, and its client
 * disconnected: it reconnects with its cursor and is replayed or resynced then.
 */
final class BatchFanOut {

    private static final Logger LOG = Logger.getLogger(BatchFanOut.class.getName());

    private final Visibility visibility;
    private final FanOutLedger ledger;
    private final ResyncMemberReads reread;
    private final DecidingAttributes attributes;
    private final LaterRows later;
    private final DispatchIndex index;
    private final AtomicLong failedBatches = new AtomicLong();
    private final AtomicLong visits = new AtomicLong();
    /** The highest transaction id fanned out so far; only the fan-out thread, under the ledger's lock, uses it. */
    private long transactionsThrough;

    BatchFanOut(Visibility visibility, DispatchIndex index, LaterRows later, FanOutLedger ledger,
                ResyncMemberReads reread) {
        this(visibility, new DecidingAttributes(visibility), index, later, ledger, reread);
    }

    BatchFanOut(Visibility visibility, DecidingAttributes attributes, DispatchIndex index, LaterRows later,
                FanOutLedger ledger, ResyncMemberReads reread) {
        this.visibility = visibility;
        this.index = index;
        this.attributes = attributes;
        this.later = later;
        this.ledger = ledger;
        this.reread = reread;
    }

    /** Fans a batch out to {@code sessions}; never throws, never skips a subscription silently. */
    void batch(StreamBatch batch, Collection<StreamSession> sessions, Consumer<StreamSession> ended) {
        ledger.fanOut(() -> {
            try {
                if (!sessions.isEmpty()) {
                    rereadStale(ended);
                    fanOut(batch, sessions, ended);
                }
            } catch (RuntimeException | Error e) {
                failedBatches.incrementAndGet();
                LOG.log(Level.SEVERE, "Fan-out of cursors " + batch.firstCursor() + ".." + batch.lastCursor()
                        + " failed; the subscriptions it concerned are told to resync (delivery_failed)", e);
                resyncConcerned(batch, sessions, ended);
            }
        }, batch.lastCursor());
    }

    /**
     * Cursors this instance still owed its clients were deleted before it delivered them: every subscription of
     * {@code sessions} may have missed some, and is told so through the gap's end (G10, G11).
     */
    void gap(StreamGap gap, Collection<StreamSession> sessions, Consumer<StreamSession> ended) {
        ledger.skip(() -> {
            Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
            for (StreamSession session : sessions) {
                owed.put(session, session.subscriptions());
            }
            resync(owed, gap.throughCursor(), ResyncReason.CURSOR_PRUNED, ended);
        }, gap.throughCursor());
    }

    /** Batches whose fan-out failed, in part or entirely, since start. */
    long failedBatches() {
        return failedBatches.get();
    }

    /**
     * The (event, subscription) pairs the fan-out looked at since start: what its work follows. It grows with what
     * the events may be owed, not with the subscriptions held (issue 42; {@code DispatchTest}).
     */
    long visits() {
        return visits.get();
    }

    private void fanOut(StreamBatch batch, Collection<StreamSession> sessions, Consumer<StreamSession> ended) {
        // A truncated model's subscriptions resync past the batch and get none of its other events (G10); so do the set
        // subscriptions of a model with an event whose pk can be no key of it, which no visibility check can decide.
        List<StreamEvent> all = PkSpellings.spelled(batch.events(), visibility::canonicalPk);
        Set<String> truncated = Truncations.models(all);
        Set<String> undecidable = UndecidablePks.models(all, visibility::canonicalPk);
        if (!truncated.isEmpty()) {
            resync(Truncations.owed(sessions, truncated), batch.lastCursor(), ResyncReason.TRUNCATED, ended);
        }
        if (!undecidable.isEmpty()) {
            resync(UndecidablePks.owed(sessions, undecidable), batch.lastCursor(), ResyncReason.DELIVERY_FAILED,
                    ended);
        }
        List<StreamEvent> decidable = Truncations.without(all, truncated);
        List<BatchSteps.Step> steps = BatchSteps.of(undecidable.isEmpty() ? decidable
                : UndecidablePks.without(decidable, visibility::canonicalPk));
        Map<String, Set<String>> modelPks = new HashMap<>();
        for (BatchSteps.Step step : steps) {
            modelPks.computeIfAbsent(step.event().model(), m -> new HashSet<>()).add(step.event().pk());
        }
        // The subscriptions the batch may concern, found through the index, and decided per (model, filter); absent
        // from the answer: could not be decided, and is never guessed (G8, G10).
        boolean leakArmed = DeliveryFaults.armed(DeliveryFaults.Fault.LEAK_EVENT);
        Dispatch dispatch = Dispatch.of(index, visibility, modelPks, transactionsThrough, leakArmed, (model, e) -> {
            failedBatches.incrementAndGet();
            LOG.log(Level.WARNING, "Visibility check of " + model + " for cursors " + batch.firstCursor() + ".."
                    + batch.lastCursor() + " failed; its subscriptions are told to resync (delivery_failed)", e);
        });
        // Read after the membership above, which may reflect rows committed after the batch: what they changed counts
        // as a later change, and a pk they deleted is gone at every row here (created again, it names another object).
        List<BatchSteps.Step> decided = BatchSteps.withLaterRows(steps,
                later.of(dispatch.concernedPks(modelPks), batch.lastCursor()));
        StepDelivery delivering = new StepDelivery(index, dispatch, new ScopeAttributes(attributes), leakArmed);
        // Event by event in cursor order, so each session receives its events in that order; a subscription that ended
        // since it was found is skipped (by its session, or here once the index has forgotten it).
        for (BatchSteps.Step step : decided) {
            dispatch.forEachCandidate(step.event().subject(), subscription -> delivering.deliver(step, subscription));
        }
        for (StreamEvent event : batch.events()) {
            transactionsThrough = Math.max(transactionsThrough, event.transactionId());
        }
        visits.addAndGet(dispatch.visited());
        resync(delivering.undecided(), batch.lastCursor(), ResyncReason.DELIVERY_FAILED, ended);
    }

    /**
     * Tells each owed subscription to resync through {@code cursor}, after reading its members again. A subscription
     * whose members cannot be read now is told all the same, and is read again (and told again) at the next batch.
     */
    private void resync(Map<StreamSession, ? extends Collection<Subscription>> owed, long cursor, ResyncReason reason,
                        Consumer<StreamSession> ended) {
        if (owed.isEmpty()) {
            return;
        }
        Map<Subscription, Set<String>> members;
        try {
            members = reread.read(owed, cursor);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "Could not read the members of the subscriptions told to resync ("
                    + reason.wireName() + "); they are read again at the next batch", e);
            members = Map.of();
        }
        for (Map.Entry<StreamSession, ? extends Collection<Subscription>> entry : owed.entrySet()) {
            StreamSession session = entry.getKey();
            try {
                for (Subscription subscription : entry.getValue()) {
                    session.resync(subscription, cursor, reason, members.get(subscription));
                }
            } catch (RuntimeException | Error e) {
                closeUntold(session, cursor, e, ended);
            }
        }
    }

    /**
     * Reads again the members of the subscriptions whose members could not be read when they were told to resync,
     * and tells each that was read to resync once more, through the last cursor fanned out: the client's refetch
     * after the first resync may be older than the members read now.
     */
    private void rereadStale(Consumer<StreamSession> ended) {
        List<FanOutLedger.Owed> due = ledger.stale();
        if (due.isEmpty()) {
            return;
        }
        Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
        for (FanOutLedger.Owed entry : due) {
            owed.computeIfAbsent(entry.session(), k -> new ArrayList<>()).add(entry.subscription());
        }
        long through = ledger.fannedOutThrough();
        Map<Subscription, Set<String>> members = reread.read(owed, through);
        for (FanOutLedger.Owed entry : due) {
            Set<String> read = members.get(entry.subscription());
            if (read == null) {
                if (!entry.session().holds(entry.subscription())) {
                    ledger.settled(entry);
                }
            } else {
                ledger.settled(entry);
                try {
                    entry.session().resync(entry.subscription(), through, entry.subscription().staleReason(), read);
                } catch (RuntimeException | Error e) {
                    closeUntold(entry.session(), through, e, ended);
                }
            }
        }
    }

    /** After a failed fan-out: every subscription an event of the batch may concern resyncs past the batch. */
    private void resyncConcerned(StreamBatch batch, Collection<StreamSession> sessions, Consumer<StreamSession> ended) {
        Map<StreamSession, Set<Subscription>> owed = new LinkedHashMap<>();
        for (StreamSession session : sessions) {
            try {
                Set<Subscription> concerned = new LinkedHashSet<>();
                for (StreamEvent event : batch.events()) {
                    concerned.addAll(session.concerned(event));
                }
                if (!concerned.isEmpty()) {
                    owed.put(session, concerned);
                }
            } catch (RuntimeException | Error e) {
                closeUntold(session, batch.lastCursor(), e, ended);
            }
        }
        resync(owed, batch.lastCursor(), ResyncReason.DELIVERY_FAILED, ended);
    }

    /**
     * Not even a resync could be queued for a connection: ending it is the only way left to tell the client, which
     * reconnects with its cursor and is replayed or resynced then (G10).
     */
    private static void closeUntold(StreamSession session, long cursor, Throwable failure,
                                    Consumer<StreamSession> ended) {
        LOG.log(Level.SEVERE, "Could not tell connection " + session.subscriber().id() + " to resync; closing it",
                failure);
        ended.accept(session);
        session.subscriber().close("The server could not deliver cursors up to " + cursor, false);
    }
}
