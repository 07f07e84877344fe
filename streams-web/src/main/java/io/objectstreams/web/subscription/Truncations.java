package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.logging.Logger;

/**
 * Truncated tables among events: a capture trigger reports a {@code TRUNCATE} as one {@code truncated} row of its
 * model, after which any object of the model may be gone. It is never delivered as an event: every subscription
 * of the model, live or replaying across it, is told to resync ({@code truncated}). An event whose pk can be no key
 * of its model is handled the same way, with reason {@code delivery_failed} ({@link #undecidable}).
 */
final class Truncations {

    private static final Logger LOG = Logger.getLogger(Truncations.class.getName());
    private static final RateLimitedLog UNDECIDABLE = new RateLimitedLog(Duration.ofMinutes(1));

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

    /**
     * The models of events whose pk can be no key of the model ({@code canonical} answers {@code null}): a publish or
     * trigger that spelled it wrongly. Nobody may be told about such an event, and not telling the model's
     * subscriptions would lose it silently: they resync, as for a truncation. Empty, nearly always.
     */
    static Set<String> undecidable(List<StreamEvent> events, BinaryOperator<String> canonical) {
        Set<String> models = new HashSet<>();
        for (StreamEvent event : events) {
            if (event.op() != EventOperation.TRUNCATED && canonical.apply(event.model(), event.pk()) == null) {
                models.add(event.model());
                UNDECIDABLE.log(LOG, "Outbox row " + event.cursor() + " of " + event.model() + " names pk "
                        + ProtocolError.quoted(event.pk()) + ", which can be no key of that model; its subscriptions"
                        + " are told to resync (delivery_failed). Check what writes such rows", null);
            }
        }
        return models;
    }

    /**
     * The events of the models not truncated; without, when {@code canonical} is given, those whose pk can be no key
     * (the other events of their models still reach object subscriptions; set subscriptions resync past them).
     */
    static List<StreamEvent> without(List<StreamEvent> events, Set<String> truncated,
                                     BinaryOperator<String> canonical) {
        if (truncated.isEmpty() && canonical == null) {
            return events;
        }
        return events.stream().filter(e -> !truncated.contains(e.model())
                && (canonical == null || canonical.apply(e.model(), e.pk()) != null)).toList();
    }

    /** Each session's subscriptions of the truncated models. */
    static Map<StreamSession, List<Subscription>> owed(Collection<StreamSession> sessions, Set<String> truncated) {
        return owed(sessions, truncated, false);
    }

    /**
     * Each session's subscriptions of the {@code models}; only its filter and model subscriptions when
     * {@code setsOnly} (an object subscription names a pk that is a key, so an undecidable event is not about it).
     */
    static Map<StreamSession, List<Subscription>> owed(Collection<StreamSession> sessions, Set<String> models,
                                                       boolean setsOnly) {
        Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
        for (StreamSession session : sessions) {
            List<Subscription> of = session.subscriptions().stream().filter(s -> models.contains(s.model())
                    && !(setsOnly && s.request().isObject())).toList();
            if (!of.isEmpty()) {
                owed.put(session, of);
            }
        }
        return owed;
    }
}
