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
 * Events whose pk can be no key of their model ({@code canonical} answers {@code null}): a publish or trigger that
 * spelled it wrongly. Nobody may be told about such an event, and not telling the model's set subscriptions would
 * lose it silently: they are told to resync ({@code delivery_failed}), as for a truncation ({@link Truncations}),
 * while the model's other events still reach its object subscriptions.
 */
final class UndecidablePks {

    private static final Logger LOG = Logger.getLogger(UndecidablePks.class.getName());
    private static final RateLimitedLog UNDECIDABLE = new RateLimitedLog(Duration.ofMinutes(1));

    private UndecidablePks() {
    }

    /** The models of such events among {@code events}, each logged (at most once a minute); nearly always none. */
    static Set<String> models(List<StreamEvent> events, BinaryOperator<String> canonical) {
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

    /** The events whose pk can be a key of their model. */
    static List<StreamEvent> without(List<StreamEvent> events, BinaryOperator<String> canonical) {
        return events.stream().filter(e -> canonical.apply(e.model(), e.pk()) != null).toList();
    }

    /**
     * Each session's filter and model subscriptions of the {@code models}: an object subscription names a pk that is
     * a key, so such an event is not about it.
     */
    static Map<StreamSession, List<Subscription>> owed(Collection<StreamSession> sessions, Set<String> models) {
        Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
        for (StreamSession session : sessions) {
            List<Subscription> of = session.subscriptions().stream()
                    .filter(s -> models.contains(s.model()) && !s.request().isObject()).toList();
            if (!of.isEmpty()) {
                owed.put(session, of);
            }
        }
        return owed;
    }
}
