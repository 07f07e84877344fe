package io.objectstreams.web.subscription;

import io.objectstreams.ObjectRef;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.web.filter.Filter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * This instance's subscriptions indexed by what makes an event concern them, so that the fan-out of a batch visits
 * the subscriptions its events may be owed to, not all of them (issue 42):
 * <ul>
 * <li>an object subscription by its object;</li>
 * <li>a set or model subscription whose scope holds keys ({@link io.objectstreams.KeyedVisibilityPolicy}) by the keys
 * its viewer holds, per (model, filter), and by the members it holds: an object it may read now is found by its keys,
 * an object it held and may no longer read by its pk;</li>
 * <li>every other set or model subscription by its model, handed every event of it: its viewer's predicate can only be
 * asked. A keyed one is handed every event too while it starts or watches for unaccounted events
 * ({@link Subscription#wantsEveryEvent}).</li>
 * </ul>
 * Subscriptions join between batches (under the {@link FanOutLedger}'s lock) and may end at any time; a fan-out never
 * misses one that was held when it began, and skips one that ended ({@link #owner} is {@code null}).
 */
final class DispatchIndex implements Subscription.MemberWatch {

    /** A key of one of a keyed policy's expressions, by its position and text. */
    record KeyAt(int expression, String text) {
    }

    /** The keyed set subscriptions of one (model, filter), by the keys they hold. */
    static final class KeyGroup {
        private final Set<Subscription> everyKey = ConcurrentHashMap.newKeySet();
        private final Holders<KeyAt> byKey = new Holders<>();
        private final Set<Subscription> all = ConcurrentHashMap.newKeySet();

        /** Hands {@code to} every subscription that may read an object with these rows of keys ({@code null}: none). */
        void admitting(List<List<String>> rows, Consumer<Subscription> to) {
            if (rows == null) {
                return;
            }
            everyKey.forEach(to);
            for (List<String> row : rows) {
                for (int i = 0; i < row.size(); i++) {
                    if (row.get(i) != null) { // a NULL key makes a row visible to nobody through it
                        byKey.forEach(new KeyAt(i, row.get(i)), to);
                    }
                }
            }
        }

        /** The subscriptions that hold every key: whatever a row's keys, they may read it. */
        Set<Subscription> everyKey() {
            return everyKey;
        }

        /** Every subscription of the group: told to resync when the group cannot be decided. */
        Set<Subscription> all() {
            return all;
        }
    }

    private final Map<Subscription, StreamSession> owners = new ConcurrentHashMap<>();
    private final Holders<ObjectRef> objects = new Holders<>();
    private final Holders<ObjectRef> members = new Holders<>();
    private final Map<String, Set<Subscription>> everyEvent = new ConcurrentHashMap<>();
    private final Map<String, Map<Filter, KeyGroup>> keyed = new ConcurrentHashMap<>();

    /** Whether the fan-out decides this subscription by the rows of keys of its (model, filter) ({@link KeyGroup}). */
    static boolean keyed(Subscription subscription) {
        return subscription.scope().holdsKeys();
    }

    /** Indexes a subscription that joins {@code session}; called between batches. */
    void add(StreamSession session, Subscription subscription) {
        owners.put(subscription, session);
        String model = subscription.model();
        if (subscription.request().pk() != null) {
            objects.add(new ObjectRef(model, subscription.request().pk()), subscription);
            return;
        }
        everyEvent.computeIfAbsent(model, m -> ConcurrentHashMap.newKeySet()).add(subscription);
        if (keyed(subscription)) {
            keyed.computeIfAbsent(model, m -> new ConcurrentHashMap<>()).compute(subscription.filter(), (f, group) -> {
                KeyGroup held = group == null ? new KeyGroup() : group;
                held.all.add(subscription);
                VisibilityKeys keys = subscription.scope().keys();
                if (keys.isAll()) {
                    held.everyKey.add(subscription);
                } else {
                    forEachKey(keys, key -> held.byKey.add(key, subscription));
                }
                return held;
            });
            subscription.watch(this);
        }
    }

    /** Forgets a subscription that ended; its members are forgotten as it releases them. */
    void remove(Subscription subscription) {
        if (owners.remove(subscription) == null) {
            return;
        }
        String model = subscription.model();
        if (subscription.request().pk() != null) {
            objects.remove(new ObjectRef(model, subscription.request().pk()), subscription);
            return;
        }
        Set<Subscription> wide = everyEvent.get(model);
        if (wide != null) {
            wide.remove(subscription);
        }
        Map<Filter, KeyGroup> groups = keyed.get(model);
        if (keyed(subscription) && groups != null) {
            groups.computeIfPresent(subscription.filter(), (f, group) -> {
                group.all.remove(subscription);
                group.everyKey.remove(subscription);
                forEachKey(subscription.scope().keys(), key -> group.byKey.remove(key, subscription));
                return group.all.isEmpty() ? null : group;
            });
        }
    }

    private static void forEachKey(VisibilityKeys keys, Consumer<KeyAt> to) {
        for (int i = 0; i < keys.expressions(); i++) {
            for (String text : keys.values(i)) {
                to.accept(new KeyAt(i, text));
            }
        }
    }

    /** The session of a subscription held now; {@code null} once it ended. */
    StreamSession owner(Subscription subscription) {
        return owners.get(subscription);
    }

    /** Hands {@code to} each object subscription of {@code subject}. */
    void objectSubscriptions(ObjectRef subject, Consumer<Subscription> to) {
        objects.forEach(subject, to);
    }

    /** Hands {@code to} each keyed set subscription that holds {@code subject} among its members. */
    void holders(ObjectRef subject, Consumer<Subscription> to) {
        members.forEach(subject, to);
    }

    /**
     * Hands {@code to} each set subscription of {@code model} that wants every event of it; a keyed one that no longer
     * does, now that transactions through {@code transactionsThrough} were fanned out, is dropped from that list here,
     * for good ({@link Subscription#wantsEveryEvent}).
     */
    void everyEvent(String model, long transactionsThrough, Consumer<Subscription> to) {
        Set<Subscription> wide = everyEvent.get(model);
        if (wide == null) {
            return;
        }
        for (Subscription subscription : wide) {
            if (keyed(subscription) && !subscription.wantsEveryEvent(transactionsThrough)) {
                wide.remove(subscription);
            } else {
                to.accept(subscription);
            }
        }
    }

    /** The keyed groups of {@code model}, by filter. */
    Map<Filter, KeyGroup> keyGroups(String model) {
        return keyed.getOrDefault(model, Map.of());
    }

    @Override
    public void joined(Subscription subscription, String pk) {
        members.add(new ObjectRef(subscription.model(), pk), subscription);
    }

    @Override
    public void left(Subscription subscription, String pk) {
        members.remove(new ObjectRef(subscription.model(), pk), subscription);
    }

    /** How many objects, member pks and subscriptions the index holds: for tests that nothing outlives its end. */
    int[] sizes() {
        return new int[] {objects.keys(), members.keys(), owners.size()};
    }
}
