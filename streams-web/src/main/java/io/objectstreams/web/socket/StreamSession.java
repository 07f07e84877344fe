package io.objectstreams.web.socket;

import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.web.filter.Filter;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.websocket.Session;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One WebSocket connection: its viewer, its subscriptions, and the protocol conversation.
 *
 * <p>Client messages arrive one at a time on the container's thread for this connection; batches arrive on the
 * listener's thread. Subscription state is guarded by this object's lock, which is never held during a
 * database query or a send, so a slow subscribe or a slow client never holds up delivery to other sessions.
 * A subscription that is still starting (its snapshot and replay are being read) buffers the live events it is
 * handed and applies them, deduplicated by cursor, once it has started (G10).
 */
final class StreamSession {

    private static final Logger LOG = Logger.getLogger(StreamSession.class.getName());

    private final Session socket;
    private final Viewer viewer;
    private final Subscriptions engine;
    private final OutboundQueue outbound;
    private final Map<String, Subscription> subscriptions = new LinkedHashMap<>();
    private final Map<String, Starting> starting = new HashMap<>();
    private int nextId = 1;

    /** Live events handed to a subscription before it started; bounded like the outbound queue. */
    private static final class Starting {
        final List<Delivery> buffered = new ArrayList<>();
        long overflowCursor = -1;
    }

    /** One event with whether its subject matches the subscription now. */
    record Delivery(StreamEvent event, boolean matches) {
    }

    StreamSession(Session socket, Viewer viewer, Subscriptions engine) {
        this.socket = socket;
        this.viewer = viewer;
        this.engine = engine;
        this.outbound = new OutboundQueue(socket, engine.outboundQueue(), engine.senders(), engine.sendLoader());
    }

    Viewer viewer() {
        return viewer;
    }

    /** Handles one client message; a bad one gets an {@code error} and the session carries on (G12). */
    void handle(String text) {
        try {
            if (tooLarge(text, engine.maxFrameBytes())) {
                throw new ProtocolError(ProtocolError.INVALID_REQUEST, "The message is larger than "
                        + engine.maxFrameBytes() + " bytes (streams.websocket.max-frame-bytes)");
            }
            JsonObject message = parse(text);
            String op = SubscribeRequest.required(message, "op");
            switch (op) {
                case "subscribe" -> subscribe(SubscribeRequest.parse(message));
                case "unsubscribe" -> unsubscribe(SubscribeRequest.required(message, "subscription_id"));
                default -> throw new ProtocolError(ProtocolError.INVALID_REQUEST,
                        "Unknown op '" + op + "'; expected subscribe or unsubscribe");
            }
        } catch (ProtocolError error) {
            outbound.control(Messages.error(error));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "WebSocket message on session " + socket.getId() + " failed", e);
            outbound.control(Messages.error(new ProtocolError(ProtocolError.INVALID_REQUEST,
                    "The server could not process this message (" + e.getClass().getSimpleName() + "); it is logged")));
        }
    }

    /** The subscriptions an event may concern, for the engine's membership queries. */
    synchronized List<Subscription> concerned(StreamEvent event) {
        return subscriptions.values().stream().filter(s -> s.concerns(event)).toList();
    }

    /** Hands one live event to a subscription; it is sent if it has an effect there. */
    synchronized void deliver(Subscription subscription, StreamEvent event, boolean matches) {
        if (subscriptions.get(subscription.id()) != subscription) {
            return;
        }
        Starting pending = starting.get(subscription.id());
        if (pending == null) {
            apply(subscription, event, matches);
        } else if (pending.buffered.size() < engine.outboundQueue()) {
            pending.buffered.add(new Delivery(event, matches));
        } else {
            pending.buffered.clear();
            pending.overflowCursor = event.cursor();
        }
    }

    /** Subscriptions and queued messages of this connection, for health data. */
    synchronized int subscriptionCount() {
        return subscriptions.size();
    }

    int queuedMessages() {
        return outbound.size();
    }

    long droppedEvents() {
        return outbound.droppedEvents();
    }

    void closed() {
        outbound.discard();
    }

    private void apply(Subscription subscription, StreamEvent event, boolean matches) {
        String action = subscription.effect(event, matches);
        if (action != null) {
            outbound.event(subscription.id(), event.cursor(), Messages.event(subscription.id(), event, action,
                    viewer.name() != null && viewer.name().equals(event.actor())));
        }
    }

    private void subscribe(SubscribeRequest request) throws ProtocolError {
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
        Subscription subscription = new Subscription(id, request, filter);
        long cursor = engine.register(this, subscription);
        Subscriptions.Start start;
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
            subscription.start(start.members(), start.replayFrom());
            outbound.control(Messages.subscribed(subscription, cursor));
            if (start.resyncReason() != null) {
                subscription.skipThrough(cursor);
                outbound.control(Messages.resyncRequired(id, cursor, start.resyncReason()));
            }
            for (Delivery replayed : start.replay()) {
                apply(subscription, replayed.event(), replayed.matches());
            }
            Starting pending = starting.remove(id);
            if (pending.overflowCursor >= 0) {
                subscription.skipThrough(pending.overflowCursor);
                outbound.control(Messages.resyncRequired(id, pending.overflowCursor, "slow_consumer"));
            }
            for (Delivery live : pending.buffered) {
                apply(subscription, live.event(), live.matches());
            }
        }
    }

    /** Called by the engine, with no batch in flight: from now on every batch sees the subscription. */
    synchronized void add(Subscription subscription) {
        subscriptions.put(subscription.id(), subscription);
        starting.put(subscription.id(), new Starting());
    }

    private void unsubscribe(String id) throws ProtocolError {
        synchronized (this) {
            if (subscriptions.remove(id) == null) {
                throw new ProtocolError(ProtocolError.NOT_SUBSCRIBED, "No active subscription " + id);
            }
            starting.remove(id);
        }
        outbound.control(Messages.unsubscribed(id));
    }

    /** UTF-8 takes 1 to 3 bytes per char (4 per surrogate pair): encode only when the length cannot decide. */
    private static boolean tooLarge(String text, int maxBytes) {
        if (text.length() > maxBytes) {
            return true;
        }
        return text.length() * 3L > maxBytes && text.getBytes(StandardCharsets.UTF_8).length > maxBytes;
    }

    private static JsonObject parse(String text) throws ProtocolError {
        JsonStructure structure;
        try (JsonReader reader = Messages.JSON.createReader(new StringReader(text))) {
            structure = reader.read();
        } catch (JsonException | IllegalStateException e) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "The message is not valid JSON");
        }
        if (!(structure instanceof JsonObject object)) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "A message must be a JSON object");
        }
        return object;
    }
}
