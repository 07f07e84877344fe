package io.objectstreams.web.socket;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.health.ListenerProbes;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.listener.OutboxReader;
import io.objectstreams.web.visibility.Visibility;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.websocket.Session;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Owns this instance's WebSocket sessions and turns each {@link StreamBatch} into subscription-relative
 * messages: visibility is decided per viewer and model with one query per batch (G8), and each session sends
 * only what concerns its own subscriptions (G9).
 */
@ApplicationScoped
public class Subscriptions {

    private static final Logger LOG = Logger.getLogger(Subscriptions.class.getName());

    @Inject
    Visibility visibility;

    @Inject
    StreamsConfig config;

    /** What the container accepts per frame: the largest {@code streams.websocket.max-frame-bytes} allowed. */
    static final int CONTAINER_FRAME_BYTES = 1_048_576 * 4;

    private final Map<String, StreamSession> sessions = new ConcurrentHashMap<>();

    /** Where a new subscription starts: the cursor it is told, what to replay, and whether to resync. */
    record Start(long cursor, long replayFrom, List<StreamEvent> replay, String resyncReason) {
    }

    void open(Session socket, Viewer viewer) {
        sessions.put(socket.getId(), new StreamSession(socket, viewer, this));
    }

    void close(Session socket) {
        sessions.remove(socket.getId());
    }

    void handle(Session socket, String text) {
        StreamSession session = sessions.get(socket.getId());
        if (session != null) {
            session.handle(text);
        }
    }

    int maxFrameBytes() {
        return config.maxFrameBytes();
    }

    int maxSubscriptions() {
        return config.maxSubscriptions();
    }

    boolean visible(Viewer viewer, String model, String pk) {
        return visibility.visible(viewer, model, List.of(pk)).contains(pk);
    }

    /**
     * Computes the subscribe-time cursor (what this instance has delivered) and the events the subscription is
     * owed: those after the client's cursor (G10), or, without one, those assigned after the subscribe-time
     * cursor that the next live batch may not carry.
     */
    Start start(SubscribeRequest request) throws ProtocolError {
        long delivered = ListenerProbes.current().map(p -> p.report().lastDeliveredCursor()).orElse(0L);
        try (Connection connection = config.dataSource().getConnection()) {
            OutboxReader.CursorState state = OutboxReader.cursorState(connection);
            long cursor = Math.max(delivered, 0);
            Long from = request.cursor();
            if (from == null) {
                return new Start(cursor, cursor,
                        OutboxReader.readSubjectAfter(connection, request.model(), request.pk(), cursor, Integer.MAX_VALUE),
                        null);
            }
            if (from > state.lastCursor()) {
                throw new ProtocolError(ProtocolError.INVALID_CURSOR, "Cursor " + from
                        + " is newer than the outbox (last cursor " + state.lastCursor() + ")");
            }
            if (from < state.prunedThrough()) {
                return new Start(cursor, cursor, List.of(), "cursor_pruned");
            }
            int limit = config.replayLimit();
            List<StreamEvent> missed = OutboxReader.readSubjectAfter(connection, request.model(), request.pk(), from,
                    limit + 1);
            if (missed.size() > limit) {
                return new Start(cursor, cursor, List.of(), "object_replay_limit_exceeded");
            }
            return new Start(cursor, from, missed, null);
        } catch (SQLException e) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "The subscription could not be started: "
                    + e.getMessage() + "; retry shortly");
        }
    }

    /** Fans a batch out to the sessions of this instance. */
    void onBatch(@Observes StreamBatch batch) {
        if (sessions.isEmpty()) {
            return;
        }
        Map<StreamSession, List<Pending>> pending = new HashMap<>();
        Map<VisibilityKey, Set<String>> toCheck = new HashMap<>();
        for (StreamSession session : sessions.values()) {
            for (StreamEvent event : batch.events()) {
                for (ObjectSubscription subscription : session.matching(event)) {
                    pending.computeIfAbsent(session, s -> new ArrayList<>()).add(new Pending(subscription, event));
                    toCheck.computeIfAbsent(new VisibilityKey(session.viewer(), event.model()), k -> new java.util.HashSet<>())
                            .add(event.pk());
                }
            }
        }
        Map<VisibilityKey, Set<String>> visible = new HashMap<>();
        toCheck.forEach((key, pks) -> visible.put(key, visibleOrNone(key, pks)));
        pending.forEach((session, deliveries) -> {
            for (Pending delivery : deliveries) {
                boolean now = visible.get(new VisibilityKey(session.viewer(), delivery.event().model()))
                        .contains(delivery.event().pk());
                session.deliver(delivery.subscription(), delivery.event(), now);
            }
        });
    }

    private Set<String> visibleOrNone(VisibilityKey key, Set<String> pks) {
        try {
            return visibility.visible(key.viewer(), key.model(), pks);
        } catch (RuntimeException e) {
            // Fail closed: an object whose visibility cannot be decided is not shown (G8).
            LOG.log(Level.WARNING, "Visibility check for " + key.model() + " failed; treating as not visible", e);
            return Set.of();
        }
    }

    private record Pending(ObjectSubscription subscription, StreamEvent event) {
    }

    private record VisibilityKey(Viewer viewer, String model) {
    }
}
