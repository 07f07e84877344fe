package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.web.filter.Filter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One client connection on any transport: its viewer, its subscriptions and its outbound queue.
 *
 * <p>Requests arrive on the transport's thread for this connection; batches arrive on the delivery thread.
 * Subscription state is guarded by this object's lock, which is never held during a database query or a send,
 * so a slow subscribe or a slow client never holds up delivery to other connections. A subscription that is
 * still starting (its snapshot and replay are being read) buffers the live events it is handed and applies them,
 * deduplicated by cursor, once it has started (G10).
 */
public final class StreamSession {

    private final Subscriber subscriber;
    private final Viewer viewer;
    private final SubscriptionEngine engine;
    private final OutboundQueue outbound;
    private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    private final Map<String, Starting> starting = new HashMap<>();
    private int nextId = 1;

    /** Live events handed to a subscription before it started, bounded like the outbound queue; or a resync. */
    private static final class Starting {
        final List<Delivery> buffered = new ArrayList<>();
        long resyncCursor = -1;
        String resyncReason;
    }

    /** One event with whether its subject matches the subscription now. */
    record Delivery(StreamEvent event, boolean matches) {
    }

    StreamSession(Subscriber subscriber, Viewer viewer, SubscriptionEngine engine, OutboundQueue outbound) {
        this.subscriber = subscriber;
        this.viewer = viewer;
        this.engine = engine;
        this.outbound = outbound;
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
    public void subscribe(SubscribeRequest request) throws ProtocolError {
        String id = request.subscriptionId() != null ? request.subscriptionId() : "sub_" + nextId++;
        synchronized (this) {
            if (subscriptions.containsKey(id)) {
                throw new ProtocolError(ProtocolError.DUPLICATE_SUBSCRIPTION, "Subscription " + id + " is already active");
            }
            if (subscriptions.size() >= engine.maxSubscriptions()) {
                throw new ProtocolError(ProtocolError.SUBSCRIPTION_LIMIT_EXCEEDED, "This connection already holds "
                        + subscriptions.size() + " subscriptions (streams.websocket.max-subscriptions)");
            }
        }
        Filter filter = engine.filter(viewer, request);
        Subscription subscription = new Subscription(id, request, filter, viewer);
        long cursor = engine.register(this, subscription);
        SubscriptionEngine.Start start;
        try {
            start = engine.start(viewer, subscription, cursor);
        } catch (ProtocolError | RuntimeException e) {
            synchronized (this) {
                subscriptions.remove(id);
                starting.remove(id);
            }
            throw e;
        }
        synchronized (this) {
            int held = memberPks();
            if (held + start.members().size() > engine.maxConnectionMemberPks()) {
                subscriptions.remove(id);
                starting.remove(id);
                throw new ProtocolError(ProtocolError.MEMBER_LIMIT_EXCEEDED, "This subscription would hold "
                        + start.members().size() + " objects and this connection's subscriptions already hold " + held
                        + "; together they may hold " + engine.maxConnectionMemberPks()
                        + " (streams.websocket.max-connection-member-pks). Unsubscribe or narrow a filter");
            }
            subscription.start(start.members(), start.replayFrom());
            outbound.control(Messages.subscribed(subscription, cursor));
            if (start.resyncReason() != null) {
                resyncNow(subscription, cursor, start.resyncReason());
            }
            EventPayloads payloads = new EventPayloads();
            for (Delivery replayed : start.replay()) {
                apply(subscription, replayed.event(), replayed.matches(), payloads);
            }
            Starting pending = starting.remove(id);
            if (pending.resyncReason != null) {
                // The dropped live events may be newer than the members just read: they are read again at the next
                // batch, and the client is told to resync once more then.
                resyncNow(subscription, pending.resyncCursor, pending.resyncReason);
                subscription.markStale(pending.resyncReason);
                engine.rereadLater(this, subscription);
            }
            for (Delivery live : pending.buffered) {
                apply(subscription, live.event(), live.matches(), payloads);
            }
        }
    }

    /** Ends a subscription: {@code unsubscribed}, or {@code not_subscribed}. */
    public void unsubscribe(String id) throws ProtocolError {
        synchronized (this) {
            if (subscriptions.remove(id) == null) {
                throw new ProtocolError(ProtocolError.NOT_SUBSCRIBED, "No active subscription " + id);
            }
            starting.remove(id);
        }
        outbound.control(Messages.unsubscribed(id));
    }

    /** Called by the engine, with no batch in flight: from now on every batch sees the subscription. */
    synchronized void add(Subscription subscription) {
        subscriptions.put(subscription.id(), subscription);
        starting.put(subscription.id(), new Starting());
    }

    /** The subscriptions an event may concern, for the engine's membership queries. */
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

    /** Hands one live event to a subscription; it is sent if it has an effect there. */
    synchronized void deliver(Subscription subscription, StreamEvent event, boolean matches, EventPayloads payloads) {
        if (subscriptions.get(subscription.id()) != subscription) {
            return;
        }
        Starting pending = starting.get(subscription.id());
        if (pending == null) {
            if (subscription.staleReason() == null) {
                apply(subscription, event, matches, payloads);
            } else {
                subscription.skipThrough(event.cursor());
            }
        } else if (pending.resyncReason != null) {
            pending.resyncCursor = Math.max(pending.resyncCursor, event.cursor());
        } else if ((pending.buffered.size() + 1L) * OutboundQueue.ENTRY_BYTES <= engine.maxConnectionBytes()) {
            pending.buffered.add(new Delivery(event, matches));
        } else {
            pending.buffered.clear();
            pending.resyncCursor = event.cursor();
            pending.resyncReason = "slow_consumer";
        }
    }

    /**
     * Tells a subscription it may have missed events through {@code cursor} (G10): the engine could not decide
     * them. Nothing of the subscription through that cursor is sent after this.
     *
     * @param members the subscription's members read after the events it missed, which the client's refetch will
     *                agree with; {@code null} when they could not be read, and the engine reads them again later
     */
    synchronized void resync(Subscription subscription, long cursor, String reason, Set<String> members) {
        if (!holds(subscription)) {
            return;
        }
        Starting pending = starting.get(subscription.id());
        if (pending != null) {
            pending.buffered.clear();
            pending.resyncCursor = Math.max(pending.resyncCursor, cursor);
            pending.resyncReason = reason;
            return;
        }
        if (members != null) {
            subscription.reread(members);
        } else if (subscription.staleReason() == null) {
            subscription.markStale(reason);
            engine.rereadLater(this, subscription);
        }
        resyncNow(subscription, cursor, reason);
    }

    /** Whether {@code subscription} is still one of this connection's. */
    synchronized boolean holds(Subscription subscription) {
        return subscriptions.get(subscription.id()) == subscription;
    }

    /**
     * Ends a subscription the server can no longer follow, with {@code error} naming it; the connection carries
     * on (G12).
     */
    synchronized void end(Subscription subscription, ProtocolError error) {
        if (holds(subscription)) {
            subscriptions.remove(subscription.id());
            starting.remove(subscription.id());
            outbound.control(Messages.error(error));
        }
    }

    /** This connection's subscriptions now. */
    synchronized List<Subscription> subscriptions() {
        return List.copyOf(subscriptions.values());
    }

    /** Objects the subscriptions of this connection hold now. */
    private int memberPks() {
        int held = 0;
        for (Subscription subscription : subscriptions.values()) {
            held += subscription.memberCount();
        }
        return held;
    }

    /** Subscriptions of this connection, for health data. */
    synchronized int subscriptionCount() {
        return subscriptions.size();
    }

    int queuedMessages() {
        return outbound.size();
    }

    long queuedBytes() {
        return outbound.queuedBytes();
    }

    long droppedEvents() {
        return outbound.droppedEvents();
    }

    void closed() {
        outbound.discard();
    }

    private void resyncNow(Subscription subscription, long cursor, String reason) {
        engine.counts().resync(reason);
        subscription.skipThrough(cursor);
        outbound.control(Messages.resyncRequired(subscription.id(), cursor, reason));
    }

    private void apply(Subscription subscription, StreamEvent event, boolean matches, EventPayloads payloads) {
        String action = subscription.effect(event, matches);
        if (action != null) {
            boolean own = viewer.name() != null && viewer.name().equals(event.actor());
            outbound.event(subscription, event.cursor(), payloads.of(event, action, own));
        }
    }
}
