package io.objectstreams.web.subscription;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A concurrent map from a key to the subscriptions that hold it, for the fan-out's index ({@link DispatchIndex}).
 * Most keys are held by one subscription (a member pk, a viewer's key), so that one is stored alone, without a set:
 * an index entry costs a map node, not a map node and a set.
 *
 * @param <K> what is held: an object, or a key at one of a policy's key expressions
 */
final class Holders<K> {

    /** Per key, a {@link Subscription} alone, or a concurrent {@code Set<Subscription>} of two or more. */
    private final Map<K, Object> held = new ConcurrentHashMap<>();

    void add(K key, Subscription subscription) {
        held.compute(key, (k, holders) -> {
            if (holders == null || holders == subscription) {
                return subscription;
            }
            if (holders instanceof Set<?> set) {
                @SuppressWarnings("unchecked")
                Set<Subscription> several = (Set<Subscription>) set;
                several.add(subscription);
                return several;
            }
            Set<Subscription> several = ConcurrentHashMap.newKeySet();
            several.add((Subscription) holders);
            several.add(subscription);
            return several;
        });
    }

    void remove(K key, Subscription subscription) {
        held.computeIfPresent(key, (k, holders) -> {
            if (holders == subscription) {
                return null;
            }
            if (holders instanceof Set<?> set) {
                set.remove(subscription);
                // Back to one holder alone: a key many held once (a popular object) costs no set for good.
                return set.isEmpty() ? null : set.size() == 1 ? set.iterator().next() : set;
            }
            return holders;
        });
    }

    /** Hands {@code to} each holder of {@code key}; one added or removed meanwhile may or may not be handed. */
    void forEach(K key, Consumer<Subscription> to) {
        Object holders = held.get(key);
        if (holders instanceof Subscription one) {
            to.accept(one);
        } else if (holders instanceof Set<?> set) {
            for (Object holder : set) {
                to.accept((Subscription) holder);
            }
        }
    }

    /** How many keys are held: for tests of what an index keeps after its subscriptions end. */
    int keys() {
        return held.size();
    }
}
