package io.objectstreams.internal.capture;

import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsException;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The application's streamed models by label, so that what is published for one of them is spelled as capture spells
 * it: one text per key ({@link io.objectstreams.internal.keys.PkText}), whoever writes the row. A pk spelled another
 * way ({@code "007"}, {@code "+7"}, an upper-case UUID, a composite key with other spacing) would reach no
 * subscription (G16).
 */
@ApplicationScoped
public class StreamedModels {

    private volatile Map<String, EntityType> byModel = Map.of();

    /** The deployment's {@code @Streamed} entities, known once capture is checked at deployment. */
    public void register(Collection<Class<?>> streamed) {
        Map<String, EntityType> models = new HashMap<>();
        for (Class<?> entity : streamed) {
            EntityType type = EntityType.of(entity);
            if (type.isOwnSubject()) {
                models.put(type.model, type);
            }
        }
        byModel = Map.copyOf(models);
    }

    /**
     * The event with its pk spelled as capture spells it, for a model of this deployment; unchanged for another
     * model. A pk that can be no key of its model is refused ({@code invalid_pk}), rather than written where no
     * subscription could ever match it.
     */
    SourceEvent canonical(SourceEvent event) {
        EntityType type = byModel.get(event.model());
        if (type == null) {
            return event;
        }
        String pk = type.canonical(event.pk());
        if (pk == null) {
            throw new StreamsException(LibraryErrorCode.INVALID_PK,
                    "StreamsPublisher.publish: pk " + event.pk() + " can be no key of"
                    + " model " + event.model() + " (" + type.entityClass.getName() + ", key " + type.keyTypes()
                    + "); publish the key as capture spells it (docs/capture.md)");
        }
        return pk.equals(event.pk()) ? event : new SourceEvent(event.model(), pk, event.facet(), event.op(),
                List.copyOf(event.changedFields()));
    }
}
