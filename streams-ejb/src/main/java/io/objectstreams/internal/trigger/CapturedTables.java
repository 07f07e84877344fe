package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.capture.CaptureModes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The tables of a deployment's {@code @Streamed} entities, by the path that captures each: those captured by
 * trigger, whose triggers are installed and checked, and those the entity listener captures, which must carry no
 * capture trigger.
 *
 * @param byTrigger  the mappings of the entities captured by trigger
 * @param byListener the mappings of the entities the listener captures, where they have a table to look at
 */
record CapturedTables(List<TableMapping> byTrigger, List<TableMapping> byListener) {

    /** Before any deployment has started capture. */
    static final CapturedTables NONE = new CapturedTables(List.of(), List.of());

    /** Trigger capture's one logger, whichever class logs for it: a logging configuration names it. */
    private static final Logger LOG = Logger.getLogger(TriggerCapture.class.getName());

    CapturedTables {
        byTrigger = List.copyOf(byTrigger);
        byListener = List.copyOf(byListener);
    }

    /**
     * Maps each of {@code streamed} on the path {@code modes} gives it. A trigger-captured entity whose mapping
     * triggers cannot follow fails deployment naming it; a listener-captured one is only left out.
     */
    static CapturedTables of(Collection<Class<?>> streamed, CaptureModes modes) {
        List<TableMapping> byTrigger = new ArrayList<>();
        List<TableMapping> byListener = new ArrayList<>();
        for (Class<?> entity : streamed) {
            if (modes.byTrigger(entity)) {
                byTrigger.add(TableMappings.of(entity));
            } else {
                try {
                    byListener.add(TableMappings.of(entity));
                } catch (StreamsException unmappable) {
                    LOG.log(Level.FINE, entity.getName() + ": no table to look at for stray capture triggers",
                            unmappable);
                }
            }
        }
        return new CapturedTables(byTrigger, byListener);
    }

    /** The models some trigger-captured part reports on. */
    Set<String> partModels() {
        return byTrigger.stream().filter(TableMapping::part).map(TableMapping::model).collect(Collectors.toSet());
    }
}
