package io.objectstreams.it.support;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.List;

/** What one server instance fired as {@code StreamBatch} events, read through the test-only endpoint. */
public record Delivered(int batches, List<Event> events) {

    /** One delivered event: its cursor, model and pk. */
    public record Event(long cursor, String model, String pk) {
    }

    public static Delivered from(StoreClient client, String model) {
        JsonObject body = client.get("api/it/delivered" + (model == null ? "" : "?model=" + model)).object();
        List<Event> events = body.getJsonArray("events").stream().map(v -> {
            JsonArray e = v.asJsonArray();
            return new Event(e.getJsonNumber(0).longValue(), e.getString(1), e.getString(2));
        }).toList();
        return new Delivered(body.getInt("batches"), events);
    }

    public List<Long> cursors() {
        return events.stream().map(Event::cursor).toList();
    }

    public List<String> pks() {
        return events.stream().map(Event::pk).toList();
    }
}
