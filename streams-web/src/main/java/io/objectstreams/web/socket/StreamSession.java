package io.objectstreams.web.socket;

import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.websocket.Session;
import java.io.IOException;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One WebSocket connection: its viewer, its subscriptions, and the protocol conversation. Every send and every
 * change of subscription state happens under the session's lock, so replayed and live events for one
 * subscription go out in cursor order, once.
 */
final class StreamSession {

    private static final Logger LOG = Logger.getLogger(StreamSession.class.getName());

    private final Session socket;
    private final Viewer viewer;
    private final Subscriptions engine;
    private final Map<String, ObjectSubscription> subscriptions = new LinkedHashMap<>();
    private int nextId = 1;

    StreamSession(Session socket, Viewer viewer, Subscriptions engine) {
        this.socket = socket;
        this.viewer = viewer;
        this.engine = engine;
    }

    Viewer viewer() {
        return viewer;
    }

    /** Handles one client message; a bad one gets an {@code error} and the session carries on (G12). */
    synchronized void handle(String text) {
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
            send(Messages.error(error));
        }
    }

    /** The subscriptions an event batch touches, for the engine's visibility query. */
    synchronized List<ObjectSubscription> matching(StreamEvent event) {
        return subscriptions.values().stream().filter(s -> s.matches(event)).toList();
    }

    /** Sends one live or replayed event to a subscription, if it has an effect there. */
    synchronized void deliver(ObjectSubscription subscription, StreamEvent event, boolean visibleNow) {
        if (subscriptions.get(subscription.id()) != subscription) {
            return;
        }
        String action = subscription.effect(event, visibleNow);
        if (action != null) {
            send(Messages.event(subscription.id(), event, action,
                    viewer.name() != null && viewer.name().equals(event.actor())));
        }
    }

    private void subscribe(SubscribeRequest request) throws ProtocolError {
        String id = request.subscriptionId() != null ? request.subscriptionId() : "sub_" + nextId++;
        if (subscriptions.containsKey(id)) {
            throw new ProtocolError(ProtocolError.DUPLICATE_SUBSCRIPTION, "Subscription " + id + " is already active");
        }
        if (subscriptions.size() >= engine.maxSubscriptions()) {
            throw new ProtocolError(ProtocolError.SUBSCRIPTION_LIMIT_EXCEEDED, "This connection already holds "
                    + subscriptions.size() + " subscriptions (streams.websocket.max-subscriptions)");
        }
        if (!engine.visible(viewer, request.model(), request.pk())) {
            throw new ProtocolError(ProtocolError.NOT_FOUND, request.model() + " " + request.pk()
                    + " does not exist or is not visible to you");
        }
        Subscriptions.Start start = engine.start(request);
        ObjectSubscription subscription = new ObjectSubscription(id, request.model(), request.pk(),
                request.ordering(), request.shape(), start.replayFrom());
        subscriptions.put(id, subscription);
        send(Messages.subscribed(subscription, start.cursor()));
        if (start.resyncReason() != null) {
            subscription.skipThrough(start.cursor());
            send(Messages.resyncRequired(id, start.cursor(), start.resyncReason()));
        }
        // Replay, and close the window between the subscribe-time cursor and the first live batch.
        for (StreamEvent event : start.replay()) {
            deliver(subscription, event, true);
        }
    }

    private void unsubscribe(String id) throws ProtocolError {
        if (subscriptions.remove(id) == null) {
            throw new ProtocolError(ProtocolError.NOT_SUBSCRIBED, "No active subscription " + id);
        }
        send(Messages.unsubscribed(id));
    }

    /** UTF-8 takes 1 to 3 bytes per char (4 per surrogate pair): encode only when the length cannot decide. */
    private static boolean tooLarge(String text, int maxBytes) {
        if (text.length() > maxBytes) {
            return true;
        }
        return text.length() * 3L > maxBytes && text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > maxBytes;
    }

    private static JsonObject parse(String text) throws ProtocolError {
        JsonStructure structure;
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            structure = reader.read();
        } catch (JsonException | IllegalStateException e) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "The message is not valid JSON");
        }
        if (!(structure instanceof JsonObject object)) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "A message must be a JSON object");
        }
        return object;
    }

    private void send(JsonObject message) {
        if (!socket.isOpen()) {
            return;
        }
        try {
            socket.getBasicRemote().sendText(message.toString());
        } catch (IOException | IllegalStateException e) {
            // The client went away; onClose/onError releases the session.
            LOG.log(Level.FINE, "Send to WebSocket session " + socket.getId() + " failed", e);
        }
    }
}
