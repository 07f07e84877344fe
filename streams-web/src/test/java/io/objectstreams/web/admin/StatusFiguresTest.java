package io.objectstreams.web.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectstreams.feed.CursorState;
import io.objectstreams.internal.health.HealthData;
import io.objectstreams.internal.health.ListenerReport;
import io.objectstreams.internal.health.SessionReport;
import io.objectstreams.internal.health.TransportCounts;
import io.objectstreams.web.subscription.Messages;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatusFiguresTest {

    static final CursorState STATE = new CursorState(120, 40, Instant.parse("2026-12-02T09:00:00Z"));

    static final ListenerReport LISTENER = new ListenerReport(true, true, "assigner", 120, 118,
            Instant.parse("2026-12-02T10:15:30Z"), null, 3, Duration.ofMillis(1_500), Duration.ofSeconds(30), null, 40,
            Instant.parse("2026-12-02T09:00:00Z"));

    static final SessionReport SESSIONS = new SessionReport(10, 4, 25, 7, 6, 2_048, 1_000_000, 2, 1, 500,
            ordered("slow_consumer", 2L, "delivery_failed", 3L));

    static final TransportCounts COUNTS = new TransportCounts(Map.of(), Map.of(),
            ordered("websocket.client_closed", 5L, "sse.lifetime", 2L),
            Map.of("subscription_limit_exceeded", 4L, "connection_limit_exceeded", 9L, "invalid_request", 1L),
            Map.of("streams.connections.max", 2L, "streams.connections.reserved-files", 7L,
                    "streams.subscriptions.max-scopes", 4L));

    @Test
    void statusShowsTheListenerAndConnectionsAsItAlwaysHas() {
        assertThat(write(Optional.of(LISTENER)).toString()).isEqualTo("{\"outboxRows\":83,\"backlogRows\":3,"
                + "\"oldestBacklogAgeMs\":1500,\"role\":\"assigner\",\"lastDeliveredCursor\":118,"
                + "\"transports\":{\"webSocket\":{\"sessions\":6,\"subscriptions\":18,\"endedByCause\":{\"client_closed\":5}},"
                + "\"sse\":{\"sessions\":4,\"subscriptions\":7,\"endedByCause\":{\"lifetime\":2}}},"
                + "\"queuedMessages\":6,\"queuedBytes\":2048,\"maxQueuedBytes\":1000000,\"deliveredEvents\":500,"
                + "\"droppedEvents\":2,\"failedFanOuts\":1,"
                + "\"refusals\":{\"byCode\":{\"connection_limit_exceeded\":9,\"invalid_request\":1,"
                + "\"subscription_limit_exceeded\":4},\"bySetting\":{\"streams.connections.max\":2,"
                + "\"streams.connections.reserved-files\":7,\"streams.subscriptions.max-scopes\":4}},"
                + "\"resyncs\":{\"total\":5,\"byReason\":{\"slow_consumer\":2,\"delivery_failed\":3}}}");
    }

    @Test
    void withoutAListenerTheStatusSaysNoneAndMinusOne() {
        JsonObject status = write(Optional.empty());

        assertThat(status.getJsonNumber("outboxRows").longValue()).isEqualTo(80);
        assertThat(status.getJsonNumber("backlogRows").longValue()).isEqualTo(-1);
        assertThat(status.getString("role")).isEqualTo("none");
        assertThat(status.getJsonNumber("lastDeliveredCursor").longValue()).isEqualTo(-1);
        assertThat(status).doesNotContainKey("oldestBacklogAgeMs");
    }

    @Test
    void everyFigureTheStatusSharesWithTheHealthDataHasTheSameValue() {
        JsonObject status = write(Optional.of(LISTENER));
        Map<String, Object> health = new LinkedHashMap<>(HealthData.of(LISTENER));
        health.putAll(HealthData.of(SESSIONS));

        int shared = 0;
        for (Map.Entry<String, Object> figure : health.entrySet()) {
            JsonValue value = status.get(figure.getKey());
            if (value instanceof JsonNumber number) {
                assertThat(number.longValue()).as(figure.getKey()).isEqualTo(figure.getValue());
                shared++;
            } else if (value instanceof JsonString text) {
                assertThat(text.getString()).as(figure.getKey()).isEqualTo(figure.getValue());
                shared++;
            }
        }
        assertThat(shared).isEqualTo(10);
        JsonObject transports = status.getJsonObject("transports");
        assertThat(transports.getJsonObject("webSocket").getInt("sessions")).isEqualTo(6)
                .isEqualTo(((Long) health.get("webSocketSessions")).intValue());
        assertThat(transports.getJsonObject("sse").getInt("subscriptions"))
                .isEqualTo(((Long) health.get("sseSubscriptions")).intValue());
        assertThat(status.getJsonObject("resyncs").getJsonNumber("total").longValue()).isEqualTo(health.get("resyncs"));
    }

    private static JsonObject write(Optional<ListenerReport> listener) {
        JsonObjectBuilder body = Messages.JSON.createObjectBuilder();
        StatusFigures.write(body, STATE, listener, SESSIONS, COUNTS);
        return body.build();
    }

    private static Map<String, Long> ordered(String first, long one, String second, long two) {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put(first, one);
        map.put(second, two);
        return map;
    }
}
