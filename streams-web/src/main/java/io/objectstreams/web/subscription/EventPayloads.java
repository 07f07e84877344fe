package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.ListAction;
import java.util.HashMap;
import java.util.Map;

/**
 * The event payloads rendered for one batch: each event once per variant ({@code list_action}, {@code own}),
 * shared by every subscriber that receives that variant (G15). Used by one thread at a time.
 */
final class EventPayloads {

    private record Variant(long cursor, ListAction listAction, boolean own) {
    }

    private final Map<Variant, String> rendered = new HashMap<>();

    String of(StreamEvent event, ListAction listAction, boolean own) {
        return rendered.computeIfAbsent(new Variant(event.cursor(), listAction, own),
                v -> Messages.eventPayload(event, listAction, own));
    }

    int size() {
        return rendered.size();
    }
}
