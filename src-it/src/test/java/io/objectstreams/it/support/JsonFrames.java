package io.objectstreams.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.function.Consumer;

/** Joins the parts of WebSocket text messages (a listener may get one in several calls) and parses each whole one. */
public final class JsonFrames {

    private final StringBuilder partial = new StringBuilder();
    private final Consumer<JsonObject> whole;

    public JsonFrames(Consumer<JsonObject> whole) {
        this.whole = whole;
    }

    /** One {@code onText} call's data; hands the message on once {@code last} says it is complete. */
    public void append(CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            whole.accept(Json.createReader(new StringReader(partial.toString())).readObject());
            partial.setLength(0);
        }
    }
}
