package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Truncated tables among events: a capture trigger reports a {@code TRUNCATE} as one {@code truncated} row of its
 * model, after which any object of the model may be gone. It is never delivered as an event: every subscription
 * of the model, live or replaying across it, is told to resync ({@code truncated}). An event whose pk can be no key
 * of its model is handled alike ({@link UndecidablePks}).
 */
final class Truncations {

    private Truncations() {
    }

    /** The models truncated among {@code events}; empty, nearly always. */
    static Set<String> models(List<StreamEvent> events) {
        Set<String> models = new HashSet<>();
        for (StreamEvent event : events) {
            if (event.op() == EventOperation.TRUNCATED) {
                models.add(event.model());
            }
        }
        return models;
    }

    /** Whether a table was truncated among {@code events}. */
    static boolean any(List<StreamEvent> events) {
        return events.stream().anyMatch(e -> e.op() == EventOperation.TRUNCATED);
    }

    /** The events of the models not truncated. */
    static List<StreamEvent> without(List<StreamEvent> events, Set<String> truncated) {
        return truncated.isEmpty() ? events : events.stream().filter(e -> !truncated.contains(e.model())).toList();
    }

    /** Each session's subscriptions of the truncated models. */
    static Map<StreamSession, List<Subscription>> owed(Collection<StreamSession> sessions, Set<String> truncated) {
        Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
        for (StreamSession session : sessions) {
            List<Subscription> of = session.subscriptions().stream().filter(s -> truncated.contains(s.model()))
                    .toList();
            if (!of.isEmpty()) {
                owed.put(session, of);
            }
        }
        return owed;
    }
}
