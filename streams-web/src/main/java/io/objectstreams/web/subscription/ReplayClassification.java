package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.StreamEvent;
import io.objectstreams.feed.CursorState;
import io.objectstreams.protocol.ResyncReason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a subscription resuming from a client's cursor is owed: the rows of docs/protocol.md's "Reconnecting" table,
 * as pure functions of what the planner read (G9, G10). Nothing here reads the database or touches a session, so
 * every cell of the table is unit-tested without a server.
 */
final class ReplayClassification {

    /** How many rows (of every model) a filter or model replay may read, per {@code streams.replay-limit}. */
    static final int SCAN_FACTOR = 10;

    private ReplayClassification() {
    }

    /** Refuses a cursor newer than any the outbox assigned: the client holds a cursor of another database. */
    static void checkNotAhead(long from, CursorState state) throws ProtocolError {
        if (from > state.lastCursor()) {
            throw new ProtocolError(ErrorCode.INVALID_CURSOR, "Cursor " + from
                    + " is newer than the outbox (last cursor " + state.lastCursor() + ")");
        }
    }

    /** Whether retention deleted rows after {@code from}, so no replay from it can be complete (G11). */
    static boolean pruned(long from, CursorState state) {
        return from < state.prunedThrough();
    }

    /**
     * Whether a filter or model replay from {@code from} through {@code cursor} would read more rows than it may.
     * Cursors have no holes, so the span is the number of rows committed since the client's cursor.
     */
    static boolean spanTooLong(long from, long cursor, int replayLimit) {
        return cursor - from > (long) replayLimit * SCAN_FACTOR;
    }

    /**
     * An object subscription's replay: the object's events after {@code from} (read through the registration
     * {@code cursor}, at most one more than the limit), or a resync when there are more than the limit.
     *
     * @param members the object, found visible after the subscription registered at {@code cursor}
     */
    static SubscriptionStart object(Set<String> members, List<StreamEvent> missed, long from, long cursor,
                                    int replayLimit) {
        if (missed.size() > replayLimit) {
            return SubscriptionStart.resync(members, cursor, ResyncReason.OBJECT_REPLAY_LIMIT_EXCEEDED);
        }
        // Every event is older than the visibility check that found the object, so each matches (G8).
        return new SubscriptionStart(members, from, missed.stream().map(e -> new Delivery(e, true)).toList(), null);
    }

    /**
     * A filter or model subscription's replay: each subject of the model that changed after {@code from}, once, at
     * its latest cursor. With the client's {@code members}, every changed subject is classified exactly from them;
     * without, only what names no object the viewer cannot read now, and otherwise the subscription resyncs
     * ({@code cursor_replay_unavailable}): naming such an object could reveal one the viewer never saw (G8).
     *
     * @param rows          the model's rows after {@code from} through {@code cursor}, in cursor order
     * @param current       the subscription's members read now: visible to the viewer and matching the filter
     * @param clientMembers the pks the client says it holds at {@code from}, or {@code null}
     * @param visible       which of the given pks the viewer may read now, whatever the filter
     * @param deciding      the attributes that decide the subscription's membership ({@code DecidingAttributes}), or
     *                      {@code null} when they cannot be told
     */
    static SubscriptionStart set(List<StreamEvent> rows, Set<String> current, Set<String> clientMembers,
                                 Function<Set<String>, Set<String>> visible, Set<String> deciding, long from,
                                 long cursor, int replayLimit) {
        if (from >= cursor) {
            return clientMembers != null ? withMembers(List.of(), current, clientMembers, visible, from)
                    : SubscriptionStart.live(current, from);
        }
        List<ChangedSubject> changed = ChangedSubject.coalesce(rows).values().stream()
                .sorted(Comparator.comparingLong(c -> c.event().cursor())).toList();
        if (changed.size() > replayLimit) {
            return SubscriptionStart.resync(current, cursor, ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
        }
        if (clientMembers != null) {
            return withMembers(changed, current, clientMembers, visible, from);
        }
        return withoutMembers(changed, current, visible, deciding, from, cursor);
    }

    /**
     * Classifies from what the client says it holds, trusting it only where the viewer can read: a named pk the
     * viewer cannot read now (hidden, deleted, or never existing, which must look alike) is dropped and answered
     * {@code removed} once, with nothing else, so what the client hears never depends on the life of an object it
     * may not see (G8). A deleted member the client really held is answered the same way, even when its pk exists
     * again now.
     */
    private static SubscriptionStart withMembers(List<ChangedSubject> changed, Set<String> current, Set<String> named,
                                                 Function<Set<String>, Set<String>> visible, long from) {
        Set<String> outside = new HashSet<>(named);
        outside.removeAll(current);
        Set<String> readable = outside.isEmpty() ? Set.of() : visible.apply(outside);
        // A member deleted in the span is gone, whatever its pk holds now (created again after the span, as a natural
        // key or a restored id can be): the object the client held is answered like any it cannot read.
        Set<String> deleted = new HashSet<>();
        changed.stream().filter(ChangedSubject::deleted).forEach(subject -> deleted.add(subject.pk()));
        Set<String> held = new HashSet<>();
        List<String> unreadable = new ArrayList<>();
        for (String pk : named) {
            if (!deleted.contains(pk) && (current.contains(pk) || readable.contains(pk))) {
                held.add(pk);
            } else {
                unreadable.add(pk);
            }
        }
        unreadable.sort(Comparator.naturalOrder());
        List<Delivery> replay = new ArrayList<>();
        for (ChangedSubject subject : changed) {
            String pk = subject.pk();
            if (held.contains(pk) || !named.contains(pk)) {
                replay.add(new Delivery(subject.event(), !subject.deleted() && current.contains(pk)));
            }
        }
        return new SubscriptionStart(held, from, replay, null, unreadable);
    }

    private static SubscriptionStart withoutMembers(List<ChangedSubject> changed, Set<String> current,
                                                    Function<Set<String>, Set<String>> visible,
                                                    Set<String> deciding, long from, long cursor) {
        Set<String> outside = new HashSet<>();
        for (ChangedSubject subject : changed) {
            if (!subject.deleted() && !current.contains(subject.pk())) {
                outside.add(subject.pk());
            }
        }
        Set<String> readable = outside.isEmpty() ? Set.of() : visible.apply(outside);
        Set<String> initial = new HashSet<>(current);
        List<Delivery> replay = new ArrayList<>();
        for (ChangedSubject subject : changed) {
            String pk = subject.pk();
            if (subject.createdSince()) {
                // Created after the client's cursor: added when it matches now. A client that resumes from a list's
                // Streams-Cursor may hold it all the same (the cursor is taken before the list is read), so one
                // that does not match now is never mentioned only when it never matched since its create.
                initial.remove(pk);
                if (!subject.deleted() && current.contains(pk)) {
                    replay.add(new Delivery(subject.event(), true));
                } else if (mayHaveMatched(subject, deciding)) {
                    return SubscriptionStart.resync(current, cursor, ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
                }
            } else if (subject.deleted() || !current.contains(pk) && !readable.contains(pk)) {
                // Gone, or no longer readable: whether the client held it cannot be known without naming it.
                return SubscriptionStart.resync(current, cursor, ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            } else {
                // Readable and older than the cursor: the client may hold it, so it is changed, or removed.
                initial.add(pk);
                replay.add(new Delivery(subject.event(), current.contains(pk)));
            }
        }
        return new SubscriptionStart(initial, from, replay, null);
    }

    /**
     * Whether a subject created after the client's cursor, which does not match now, may have matched at some row
     * since its create: it was deleted, or a later row changed what decides membership (anything at all, when that
     * cannot be told). Otherwise it was created as it is now, not matching, and no client can hold it.
     */
    private static boolean mayHaveMatched(ChangedSubject subject, Set<String> deciding) {
        Set<String> changes = subject.changedSince();
        if (subject.deleted() || changes.contains(BatchSteps.ANY)) {
            return true;
        }
        return deciding == null ? !changes.isEmpty() : !Collections.disjoint(changes, deciding);
    }
}
