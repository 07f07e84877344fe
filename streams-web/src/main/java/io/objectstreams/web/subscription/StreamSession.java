package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.web.filter.Filter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One client connection on any transport: its viewer, its subscriptions and its outbound queue.
 *
 * <p>Requests arrive on a start thread, one at a time per connection ({@link RequestQueue}); batches on the delivery
 * thread. Subscription state is guarded by this object's lock, which is never held during a database query or a send,
 * so a slow subscribe or a slow client never holds up delivery to other connections. A subscription that is still
 * starting (its snapshot and replay are being read) buffers the live events it is handed and applies them, deduplicated
 * by cursor, once it has started (G10).
 */
public final class StreamSession {

    private final Subscriber subscriber;
    private final Viewer viewer;
    private final OutboundQueue outbound;
    private final ReplayPlanner planner;
    private final FanOutLedger ledger;
    private final LongSupplier deliveredCursor;
    private final SubscriptionLimits limits;
    private final DeliveryCounts counts;
    private final ServerTally tally;
    private final DispatchIndex index;
    private final SubscriptionSender sender;
    private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    private final Map<String, StartingSubscription> starting = new HashMap<>();
    private int nextId = 1;
    private boolean closed;

    StreamSession(Subscriber subscriber, Viewer viewer, OutboundQueue outbound, ReplayPlanner planner,
                  FanOutLedger ledger, LongSupplier deliveredCursor, SubscriptionLimits limits, DeliveryCounts counts,
                  ServerTally tally, DispatchIndex index) {
        this.subscriber = subscriber;
        this.viewer = viewer;
        this.outbound = outbound;
        this.planner = planner;
        this.ledger = ledger;
        this.deliveredCursor = deliveredCursor;
        this.limits = limits;
        this.counts = counts;
        this.tally = tally;
        this.index = index;
        this.sender = new SubscriptionSender(this, viewer, outbound, ledger, counts);
    }

    public Viewer viewer() {
        return viewer;
    }

    Subscriber subscriber() {
        return subscriber;
    }

    /** Answers a request the server refused; the connection carries on (G12). */
    public void refuse(ProtocolError error) {
        outbound.control(Messages.error(error));
    }

    /** Starts a subscription: {@code subscribed}, then its replay or resync, then its live events. */
    public void subscribe(SubscribeRequest asked) throws ProtocolError {
        String id = asked.subscriptionId() != null ? asked.subscriptionId() : "sub_" + nextId++;
        try {
            start(id, asked);
        } catch (ProtocolError refused) { // it is named, unless it is a duplicate: then the id is the other one's
            throw refused.code() == ErrorCode.DUPLICATE_SUBSCRIPTION ? refused : refused.about(id);
        }
    }

    private void start(String id, SubscribeRequest asked) throws ProtocolError {
        checkRoomFor(id);
        Filter filter = planner.filter(asked);
        SubscribeRequest request = planner.canonical(asked);
        Subscription subscription = new Subscription(id, request, planner.scope(viewer, request, filter), tally);
        long cursor = join(subscription);
        SubscriptionStart start;
        try {
            start = planner.start(subscription, cursor);
        } catch (ProtocolError | RuntimeException e) {
            forget(id);
            throw e;
        }
        synchronized (this) {
            if (!holds(subscription)) { // ended by the server while it started: told why, never subscribed
                return;
            }
            checkMemberRoom(id, start);
            begin(subscription, start, cursor);
        }
    }

    private synchronized void checkRoomFor(String id) throws ProtocolError {
        limits.checkSubscriptionRoom(id, subscriptions.keySet());
    }

    /**
     * Adds the subscription between two batches and returns the cursor it starts from: every batch through it has
     * been fanned out without the subscription, every later one reaches it (buffered until it has started).
     */
    private long join(Subscription subscription) throws ProtocolError {
        if (deliveredCursor.getAsLong() < 0) {
            // Registered now, the subscription would start at a cursor delivery may later jump past (G10).
            throw new ProtocolError(ErrorCode.UNAVAILABLE, "This server has not reached the database since it"
                    + " started, so it cannot tell where your subscription would start; retry shortly");
        }
        tally.hold(subscription.scope());
        return ledger.join(() -> add(subscription), deliveredCursor);
    }

    private synchronized void add(Subscription subscription) {
        if (closed) { // the connection closed while this subscription waited to join: nothing may stay held
            subscription.release();
            return;
        }
        subscriptions.put(subscription.id(), subscription);
        starting.put(subscription.id(), new StartingSubscription(limits.maxConnectionBytes()));
        index.add(this, subscription);
        held(1);
    }

    private synchronized void forget(String id) {
        Subscription ended = subscriptions.remove(id);
        starting.remove(id);
        if (ended != null) {
            held(-1);
            outbound.forget(ended);
            index.remove(ended);
            ended.release();
        }
    }

    /** Refuses a subscription that would make this connection's subscriptions hold too many objects together. */
    private void checkMemberRoom(String id, SubscriptionStart start) throws ProtocolError {
        try {
            limits.checkMemberRoom(subscriptions.values(), start.members().size());
            tally.checkMembers(start.members().size());
        } catch (ProtocolError refused) {
            forget(id);
            throw refused;
        }
    }

    /** {@code subscribed}, then the replay or resync, then the live events it was handed while starting. */
    private void begin(Subscription subscription, SubscriptionStart start, long cursor) {
        subscription.start(start.members(), start.replayFrom());
        outbound.control(Messages.subscribed(subscription.id(), subscription.request(), cursor));
        for (String pk : start.unreadable()) {
            outbound.event(subscription, start.replayFrom(),
                    Messages.unreadableMemberPayload(subscription.model(), pk, start.replayFrom()), -1);
        }
        if (start.resyncReason() != null) {
            sender.resyncNow(subscription, cursor, start.resyncReason());
        }
        EventPayloads payloads = new EventPayloads();
        for (Delivery replayed : start.replay()) {
            sender.apply(subscription, replayed.event(), replayed.matches(), replayed.latest(), payloads);
        }
        StartingSubscription pending = starting.remove(subscription.id());
        if (pending.resyncReason() != null) {
            // The dropped live events may be newer than the members just read.
            sender.resyncStale(subscription, pending.resyncCursor(), pending.resyncReason());
        }
        for (Delivery live : pending.buffered()) {
            sender.apply(subscription, live.event(), live.matches(), live.latest(), payloads);
        }
        subscription.started();
    }

    /** Ends a subscription: {@code unsubscribed}, or {@code not_subscribed}. */
    public void unsubscribe(String id) throws ProtocolError {
        SubscribeRequest.checkId(id, ErrorCode.NOT_SUBSCRIBED);
        synchronized (this) {
            if (!subscriptions.containsKey(id)) {
                throw new ProtocolError(ErrorCode.NOT_SUBSCRIBED, "No active subscription " + ProtocolError.quoted(id))
                        .about(id);
            }
            forget(id);
        }
        outbound.control(Messages.unsubscribed(id));
    }

    /** The subscriptions an event may concern, for the fan-out's membership queries. */
    synchronized List<Subscription> concerned(StreamEvent event) {
        List<Subscription> concerned = null;
        for (Subscription subscription : subscriptions.values()) {
            if (subscription.concerns(event)) {
                if (concerned == null) {
                    concerned = new ArrayList<>(2);
                }
                concerned.add(subscription);
            }
        }
        return concerned == null ? List.of() : concerned;
    }

    /** Hands one live event to a subscription (as a {@link Delivery}); it is sent if it has an effect there. */
    synchronized void deliver(Subscription subscription, StreamEvent event, boolean matches, boolean latest,
                              EventPayloads payloads) {
        if (subscriptions.get(subscription.id()) != subscription) {
            return;
        }
        StartingSubscription pending = starting.get(subscription.id());
        if (pending != null) {
            pending.buffer(event, matches, latest);
        } else {
            sender.apply(subscription, event, matches, latest, payloads);
        }
    }

    /**
     * Tells a subscription it may have missed events through {@code cursor} (G10): the fan-out could not decide
     * them. Nothing of the subscription through that cursor is sent after this.
     *
     * @param members the subscription's members read after the events it missed, which the client's refetch will
     *                agree with; {@code null} when they could not be read, and the fan-out reads them again later
     */
    synchronized void resync(Subscription subscription, long cursor, ResyncReason reason, Set<String> members) {
        if (!holds(subscription)) {
            return;
        }
        StartingSubscription pending = starting.get(subscription.id());
        if (pending != null) {
            pending.resync(cursor, reason);
            return;
        }
        if (members != null) {
            subscription.reread(members);
        } else if (subscription.staleReason() == null) {
            subscription.markStale(reason);
            ledger.rereadLater(this, subscription);
        }
        sender.resyncNow(subscription, cursor, reason);
    }

    /** Whether {@code subscription} is still one of this connection's. */
    synchronized boolean holds(Subscription subscription) {
        return subscriptions.get(subscription.id()) == subscription;
    }

    /** Ends a subscription the server can no longer follow, with {@code error} naming it; the connection carries on. */
    synchronized void end(Subscription subscription, ProtocolError error) {
        if (holds(subscription)) {
            forget(subscription.id());
            outbound.control(Messages.error(error.about(subscription.id())));
        }
    }

    /**
     * The cursor through which this connection was sent everything it is owed, or -1 when that cannot be said now (a
     * subscription still starting, or messages queued or being sent). An idle SSE stream's heartbeat carries it as
     * its {@code id:}, so a browser that reconnects after a long quiet resumes from there, not from its last event.
     */
    public synchronized long broughtUpTo() {
        if (closed || !starting.isEmpty() || subscriptions.isEmpty()) {
            return -1;
        }
        // Read before the queue: every message of a batch through it was queued before it was published.
        long through = ledger.throughNow();
        return outbound.idle() ? through : -1;
    }

    /** This connection's subscriptions now. */
    synchronized List<Subscription> subscriptions() {
        return List.copyOf(subscriptions.values());
    }

    synchronized void closed() {
        closed = true;
        outbound.discard();
        subscriptions.values().forEach(subscription -> {
            index.remove(subscription);
            subscription.release();
        });
        held(-subscriptions.size());
        subscriptions.clear();
    }

    /** Counts subscriptions added to or ended on this connection, by transport, for health. */
    private void held(int delta) {
        counts.subscriptions(subscriber.transport().equals("sse"), delta);
    }
}
