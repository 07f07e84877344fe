package io.objectstreams.web.admin;

import io.objectstreams.feed.CursorState;
import io.objectstreams.internal.health.HealthData;
import io.objectstreams.internal.health.ListenerReport;
import io.objectstreams.internal.health.SessionReport;
import io.objectstreams.internal.health.TransportCounts;
import io.objectstreams.web.subscription.Messages;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The part of the admin status that the health data shows too: the listener's backlog, role and delivery, and
 * this instance's connections. Written from {@link HealthData}'s figures, so a figure has the same name and value
 * in both; only the grouping differs (by transport here, flat in the health data).
 */
final class StatusFigures {

    private static final List<String> CONNECTIONS = List.of(HealthData.QUEUED_MESSAGES, HealthData.QUEUED_BYTES,
            HealthData.MAX_QUEUED_BYTES, HealthData.DELIVERED_EVENTS, HealthData.DROPPED_EVENTS,
            HealthData.FAILED_FAN_OUTS);

    private StatusFigures() {
    }

    /**
     * @param listener the listener's report; empty while none is registered (the status then says role
     *                 {@code none} and -1 for what it cannot know)
     * @param counts   what the transports did since start: connections ended by cause (each prefixed with its
     *                 transport and a dot), refusals by code and by setting
     */
    static void write(JsonObjectBuilder body, CursorState state, Optional<ListenerReport> listener,
                      SessionReport sessions, TransportCounts counts) {
        Map<String, Long> ended = counts.endedByCause();
        Map<String, Object> figures = listener.map(HealthData::of).orElse(Map.of());
        long backlog = (Long) figures.getOrDefault(HealthData.BACKLOG_ROWS, -1L);
        // Cursors are handed out without holes and only retention deletes assigned rows, so the assigned rows kept
        // are exactly those above the watermark: no count over the table.
        body.add("outboxRows", state.lastCursor() - state.prunedThrough() + Math.max(backlog, 0))
                .add(HealthData.BACKLOG_ROWS, backlog);
        add(body, HealthData.OLDEST_BACKLOG_AGE_MS, figures.get(HealthData.OLDEST_BACKLOG_AGE_MS));
        add(body, HealthData.ROLE, figures.getOrDefault(HealthData.ROLE, "none"));
        add(body, HealthData.LAST_DELIVERED_CURSOR, figures.getOrDefault(HealthData.LAST_DELIVERED_CURSOR, -1L));
        listener.map(HealthData::errors).orElse(Map.of()).forEach((name, text) -> add(body, name, text));

        Map<String, Object> connections = HealthData.of(sessions);
        body.add("transports", Messages.JSON.createObjectBuilder()
                .add("webSocket", transport(connections.get(HealthData.WEB_SOCKET_SESSIONS),
                        connections.get(HealthData.WEB_SOCKET_SUBSCRIPTIONS), ended, "websocket."))
                .add("sse", transport(connections.get(HealthData.SSE_SESSIONS),
                        connections.get(HealthData.SSE_SUBSCRIPTIONS), ended, "sse.")));
        CONNECTIONS.forEach(name -> add(body, name, connections.get(name)));
        body.add("refusals", Messages.JSON.createObjectBuilder().add("byCode", counted(counts.refusalsByCode()))
                .add("bySetting", counted(counts.refusalsBySetting())));
        JsonObjectBuilder byReason = Messages.JSON.createObjectBuilder();
        sessions.resyncsByReason().forEach(byReason::add);
        JsonObjectBuilder resyncs = Messages.JSON.createObjectBuilder();
        add(resyncs, "total", connections.get(HealthData.RESYNCS));
        body.add(HealthData.RESYNCS, resyncs.add("byReason", byReason));
    }

    private static JsonObjectBuilder transport(Object sessions, Object subscriptions, Map<String, Long> ended,
                                               String prefix) {
        JsonObjectBuilder transport = Messages.JSON.createObjectBuilder();
        add(transport, "sessions", sessions);
        add(transport, "subscriptions", subscriptions);
        JsonObjectBuilder byCause = Messages.JSON.createObjectBuilder();
        ended.forEach((cause, count) -> {
            if (cause.startsWith(prefix)) {
                byCause.add(cause.substring(prefix.length()), count);
            }
        });
        return transport.add("endedByCause", byCause);
    }

    /** Counts by name, in name order. */
    private static JsonObjectBuilder counted(Map<String, Long> counts) {
        JsonObjectBuilder counted = Messages.JSON.createObjectBuilder();
        new TreeMap<>(counts).forEach(counted::add);
        return counted;
    }

    /** Adds a figure (a number, a flag or text) with its JSON type; nothing while it is unknown. */
    private static void add(JsonObjectBuilder body, String name, Object value) {
        if (value instanceof Long number) {
            body.add(name, number);
        } else if (value instanceof Boolean flag) {
            body.add(name, flag);
        } else if (value != null) {
            body.add(name, value.toString());
        }
    }
}
