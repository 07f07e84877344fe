package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.Scope;
import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.feed.TransactionSnapshot;
import io.objectstreams.protocol.ListAction;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.web.filter.Filter;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One subscription of one connection, of any kind. An object subscription is a set of at most one member,
 * so every kind classifies events the same way (G9): the members are the subjects the subscriber was last told
 * belong to the set, and an event's {@code list_action} follows from whether its subject belonged and whether
 * it matches now (visible to the viewer, and matching the filter).
 *
 * <p>It also remembers the last cursor it sent, so replayed and live events never repeat (G10). Guarded by its
 * session's lock.
 *
 * <p>After a resync the client holds what it refetched, so the members must be read again too: until they are, the
 * subscription is <em>stale</em>, cannot classify events, and skips them (a second resync covers them).
 */
final class Subscription {

    /** Told of every pk a subscription starts or stops holding: the fan-out's index of who holds what. */
    interface MemberWatch {
        MemberWatch NONE = new MemberWatch() {
            @Override
            public void joined(Subscription subscription, String pk) {
            }

            @Override
            public void left(Subscription subscription, String pk) {
            }
        };

        void joined(Subscription subscription, String pk);

        void left(Subscription subscription, String pk);
    }

    private static final AtomicLong SUBSCRIBED = new AtomicLong();

    private final long order = SUBSCRIBED.incrementAndGet();
    private final String id;
    private final SubscribeRequest request;
    private final Filter filter;
    private final Scope scope;
    private final String eventHead;
    /** Where its members are counted; a throwaway one once it has been released, so nothing is counted twice. */
    private ServerTally tally;
    private MemberWatch watch = MemberWatch.NONE;
    private Set<String> members = new HashSet<>();
    private long sentThrough;
    private ResyncReason staleReason;
    /**
     * For a subscription resumed without members: when its members were read, until it has resynced once. Volatile,
     * like {@link #started}: the fan-out reads both outside the session's lock ({@link #wantsEveryEvent}).
     */
    private volatile TransactionSnapshot membersReadAt;
    private volatile boolean started;

    Subscription(String id, SubscribeRequest request, Filter filter, Viewer viewer) {
        this(id, request, new Scope(viewer, request.model(), filter), ServerTally.unbounded());
    }

    /**
     * @param scope what it asks visibility ({@link io.objectstreams.web.visibility.Visibility#scope})
     * @param tally the server-wide count its members are added to, whose scope it holds until {@link #release}
     */
    Subscription(String id, SubscribeRequest request, Scope scope, ServerTally tally) {
        this.id = id;
        this.tally = tally;
        this.request = request;
        this.filter = scope.filter();
        this.scope = scope;
        this.eventHead = Messages.eventHead(id);
    }

    String id() {
        return id;
    }

    /** When it was made, among every subscription of this instance: the fan-out hands each event out in this order. */
    long order() {
        return order;
    }

    /** From now on, {@code watch} is told of every pk it starts or stops holding, beginning with those it holds. */
    void watch(MemberWatch watch) {
        this.watch = watch;
        members.forEach(pk -> watch.joined(this, pk));
    }

    /** It has started: it holds its members, and applied the live events it was handed while it started. */
    void started() {
        started = true;
    }

    /**
     * Whether an event of its model may concern it although it neither holds the subject nor may read it now, so that
     * the fan-out must hand it every event of its model: while it starts (its members are not read yet), and while
     * it watches for {@link #unaccounted} events, which only a transaction its members' snapshot saw can cause. Once
     * the fan-out has handed out a transaction the snapshot did not see (begun after it), every row of those it saw
     * came before: they committed before it began, and cursors follow the order rows were written in (G5). Once
     * false, false for good: {@code transactionsThrough} only grows.
     *
     * @param transactionsThrough the highest transaction id fanned out so far
     */
    boolean wantsEveryEvent(long transactionsThrough) {
        TransactionSnapshot readAt = membersReadAt;
        return !started || readAt != null && transactionsThrough < readAt.xmax();
    }

    SubscribeRequest request() {
        return request;
    }

    String model() {
        return request.model();
    }

    Filter filter() {
        return filter;
    }

    /** The (viewer, model, filter) whose membership query decides this subscription's events. */
    Scope scope() {
        return scope;
    }

    /** The opening of this subscription's event messages, rendered once (see {@link Messages#eventPayload}). */
    String eventHead() {
        return eventHead;
    }

    /** Starts the subscription with the members it has at {@code cursor}. */
    void start(Set<String> initialMembers, long cursor) {
        replaceMembers(initialMembers);
        sentThrough = cursor;
    }

    /** Replaces the members with a fresh read of the set, made after every event it has skipped. */
    void reread(Set<String> currentMembers) {
        replaceMembers(currentMembers);
        staleReason = null;
        membersReadAt = null; // the client refetches: what it holds is read afresh
    }

    private void replaceMembers(Set<String> now) {
        int before = members.size();
        Set<String> was = members;
        members = new HashSet<>(now);
        tally.members(members.size() - before);
        for (String pk : members) {
            if (!was.contains(pk)) {
                watch.joined(this, pk);
            }
        }
        for (String pk : was) {
            if (!members.contains(pk)) {
                watch.left(this, pk);
            }
        }
    }

    /** It has ended: gives back its members and its scope to the server-wide tally. */
    void release() {
        tally.members(-members.size());
        members.forEach(pk -> watch.left(this, pk));
        watch = MemberWatch.NONE;
        members = new HashSet<>();
        tally.release(scope);
        tally = ServerTally.unbounded();
    }

    /** Its members are out of date since a resync for {@code reason}, until {@link #reread}. */
    void markStale(ResyncReason reason) {
        staleReason = reason;
    }

    /** Why its members are out of date, or {@code null} when they are current. */
    ResyncReason staleReason() {
        return staleReason;
    }

    boolean isMember(String pk) {
        return members.contains(pk);
    }

    /** The members it holds now. */
    int memberCount() {
        return members.size();
    }

    /** Whether an event on this subject may concern the subscription (before visibility and filter are known). */
    boolean concerns(StreamEvent event) {
        return event.model().equals(request.model()) && (request.pk() == null || request.pk().equals(event.pk()));
    }

    /**
     * Starts watching for {@link #unaccounted} events: {@code readAt} covers the members the subscription starts with.
     */
    void watchUnaccounted(TransactionSnapshot readAt) {
        membersReadAt = readAt;
    }

    /**
     * For a subscription resumed without the client's {@code members} (G10): whether this event, not yet applied, may
     * concern an object the client held that left the set before the members were read. The members reflect every
     * transaction the snapshot taken after reading them has seen; an event of such a transaction that neither
     * matches nor concerns a member, about an object not created by it, can be that: whether the client held the
     * object cannot be told without naming one the viewer may never have seen, so the subscription must resync
     * ({@code cursor_replay_unavailable}). Its event may arrive while the subscription starts or after, whenever
     * delivery reaches it (a row followed by its object's delete in the same batch arrives too, matching nothing).
     * True at most once: the resync reads the members again.
     */
    boolean unaccounted(StreamEvent event, boolean matchesNow) {
        if (membersReadAt == null || matchesNow || event.cursor() <= sentThrough || event.op() == EventOperation.CREATED
                || members.contains(event.pk()) || !membersReadAt.sees(event.transactionId())) {
            return false;
        }
        membersReadAt = null;
        return true;
    }

    /** As {@link #effect(StreamEvent, boolean, boolean)}, for an event after which nothing changed its subject. */
    ListAction effect(StreamEvent event, boolean matchesNow) {
        return effect(event, matchesNow, true);
    }

    /**
     * The {@code list_action} this event means for this subscription, or {@code null} when it has no effect
     * (already sent, or about an object that neither belonged nor belongs). Advances the state.
     *
     * @param matchesNow whether the subject exists, is visible to the subscriber and matches the filter now
     * @param latest     whether now is the state after this event; when a later transaction wrote the subject since,
     *                   the event cannot add it or be told to a member as seen ({@link Delivery#latest})
     */
    ListAction effect(StreamEvent event, boolean matchesNow, boolean latest) {
        if (event.cursor() <= sentThrough) {
            return null;
        }
        sentThrough = event.cursor();
        boolean belonged = members.contains(event.pk());
        if (event.op() == EventOperation.DELETED) {
            leave(event.pk(), belonged);
            return belonged ? ListAction.DELETED : null;
        }
        if (matchesNow && !latest) {
            // The subject matches after a later write; whether the subscriber could see it at this one, the state now
            // cannot tell (it may have left the subscriber's view and come back), so this row (its fields, its
            // transaction) is not told as seen: the later row adds it, or tells the member of it (G8, G17).
            return null;
        }
        if (matchesNow) {
            if (!belonged) {
                members.add(event.pk());
                tally.members(1);
                watch.joined(this, event.pk());
            }
            return belonged ? ListAction.CHANGED : ListAction.ADDED;
        }
        leave(event.pk(), belonged);
        return belonged ? ListAction.REMOVED : null;
    }

    private void leave(String pk, boolean belonged) {
        if (belonged) {
            members.remove(pk);
            tally.members(-1);
            watch.left(this, pk);
        }
    }

    /** Skips everything up to {@code cursor} (after a resync). */
    void skipThrough(long cursor) {
        sentThrough = Math.max(sentThrough, cursor);
        membersReadAt = null; // after a resync the client refetches: no longer unaccounted for
    }
}
