package io.objectstreams.web.subscription;

import io.objectstreams.ObjectRef;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.visibility.Scope;
import io.objectstreams.web.visibility.Visibility;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The subscriptions one batch may concern, found through the {@link DispatchIndex}, and what visibility decides for
 * them (G8, G9): per subject, the subscriptions its events are handed to, in the order they subscribed; per scope, the
 * pks its viewer may read now among those asked. Its cost follows the subscriptions found and the scopes that must be
 * asked one by one, not the number of subscriptions held (issue 42).
 *
 * <p>A keyed subscription ({@link DispatchIndex#keyed}) is decided by the rows of keys of its (model, filter), read in
 * one query whatever the number of viewers; any other by {@link Visibility#matching(Map, BiConsumer)}. A subscription
 * left undecided ({@link #matches} is {@code null}) must be told to resync: its (model, filter) could not be read.
 */
final class Dispatch {

    private record Group(String model, Filter filter) {
    }

    private static final Comparator<Subscription> BY_ORDER = Comparator.comparingLong(Subscription::order);

    private final DispatchIndex index;
    private final Visibility visibility;
    private final BiConsumer<String, RuntimeException> failed;
    /** Per subject, the subscriptions found for it alone: by object, by keys, by what they hold. */
    private final Map<ObjectRef, Set<Subscription>> found = new HashMap<>();
    /**
     * Per model, the subscriptions handed every event of it, in the order they subscribed: kept once per model, not
     * copied to each subject, so that a batch of 1,000 subjects and thousands of them allocates nothing per pair.
     */
    private final Map<String, Set<Subscription>> everySubject = new HashMap<>();
    private final Map<String, List<Subscription>> everySubjectOrdered = new HashMap<>();
    private final Map<Scope, Set<String>> toCheck = new HashMap<>();
    private final Map<Scope, Set<String>> keyedMatches = new HashMap<>();
    private final Set<Group> decidedGroups = new HashSet<>();
    private Map<Scope, Set<String>> matching = Map.of();
    private long visited;

    private Dispatch(DispatchIndex index, Visibility visibility, BiConsumer<String, RuntimeException> failed) {
        this.index = index;
        this.visibility = visibility;
        this.failed = failed;
    }

    /**
     * Finds and decides the subscriptions the subjects {@code modelPks} (per model) may concern. With
     * {@code everyHolder} (a test's deliberate leak, {@code DeliveryFaults}), every keyed set subscription of a model
     * is handed every event of it. A (model, filter) whose query fails is reported to {@code failed}, and its
     * subscriptions left undecided.
     */
    static Dispatch of(DispatchIndex index, Visibility visibility, Map<String, Set<String>> modelPks,
                       long transactionsThrough, boolean everyHolder, BiConsumer<String, RuntimeException> failed) {
        Dispatch dispatch = new Dispatch(index, visibility, failed);
        modelPks.forEach((model, pks) -> dispatch.gather(model, pks, transactionsThrough, everyHolder));
        dispatch.matching = visibility.matching(dispatch.toCheck, failed);
        return dispatch;
    }

    /**
     * @param transactionsThrough the highest transaction id fanned out before this batch
     *                            ({@link Subscription#wantsEveryEvent})
     */
    private void gather(String model, Set<String> pks, long transactionsThrough, boolean everyHolder) {
        // Set subscriptions handed every event: an unkeyed one asks its viewer's predicate of every subject.
        Set<Subscription> wide = everySubject.computeIfAbsent(model, m -> new HashSet<>());
        index.everyEvent(model, transactionsThrough, subscription -> {
            wide.add(subscription);
            if (!DispatchIndex.keyed(subscription)) {
                // One set of the model's pks, shared by every such scope and never changed after this.
                toCheck.put(subscription.scope(), pks);
            }
        });
        Map<Filter, List<Subscription>> keyedObjects = new HashMap<>();
        for (String pk : pks) {
            ObjectRef subject = new ObjectRef(model, pk);
            index.objectSubscriptions(subject, subscription -> {
                found(subject, subscription);
                if (DispatchIndex.keyed(subscription)) {
                    keyedObjects.computeIfAbsent(subscription.filter(), f -> new ArrayList<>()).add(subscription);
                } else if (toCheck.get(subscription.scope()) != pks) { // a set subscription's scope asks them all
                    toCheck.computeIfAbsent(subscription.scope(), s -> new HashSet<>()).add(pk);
                }
            });
            // An object a keyed subscription holds and may no longer read is found by its pk alone.
            index.holders(subject, subscription -> found(subject, subscription));
        }
        Map<Filter, DispatchIndex.KeyGroup> groups = index.keyGroups(model);
        Set<Filter> filters = new HashSet<>(groups.keySet());
        filters.addAll(keyedObjects.keySet());
        for (Filter filter : filters) {
            DispatchIndex.KeyGroup group = groups.get(filter);
            List<Subscription> objects = keyedObjects.getOrDefault(filter, List.of());
            decideKeyed(model, filter, group, group != null ? pks : pksOf(objects), objects, everyHolder);
        }
    }

    /**
     * Reads the keys of {@code pks} of one (model, filter) once, and finds by them the group's subscriptions that may
     * read each; decides its object subscriptions by them too. When the read fails, every subscription of the group
     * is handed every subject, undecided, so that each is told to resync.
     */
    private void decideKeyed(String model, Filter filter, DispatchIndex.KeyGroup group, Collection<String> pks,
                             List<Subscription> objects, boolean everyHolder) {
        Map<String, List<List<String>>> rows;
        try {
            rows = visibility.keyRows(model, filter, pks);
        } catch (RuntimeException e) {
            failed.accept(model, e);
            if (group != null) {
                everySubject.get(model).addAll(group.all());
            }
            return;
        }
        decidedGroups.add(new Group(model, filter));
        for (Subscription object : objects) {
            String pk = object.request().pk();
            Set<String> readable = keyedMatches.computeIfAbsent(object.scope(), s -> new HashSet<>());
            if (object.scope().keys().admitsAny(rows.get(pk))) {
                readable.add(pk);
            }
        }
        if (group == null) {
            return;
        }
        // One that sees every object while it exists is owed the rows of one deleted since, which has no keys now.
        everySubject.get(model).addAll(everyHolder ? group.all() : group.everyKey());
        for (String pk : pks) {
            ObjectRef subject = new ObjectRef(model, pk);
            group.admitting(rows.get(pk), subscription -> {
                keyedMatches.computeIfAbsent(subscription.scope(), s -> new HashSet<>()).add(pk);
                if (!subscription.scope().keys().isAll()) {
                    found(subject, subscription);
                }
            });
        }
    }

    private static Set<String> pksOf(List<Subscription> objects) {
        Set<String> pks = new HashSet<>();
        objects.forEach(object -> pks.add(object.request().pk()));
        return pks;
    }

    private void found(ObjectRef subject, Subscription subscription) {
        found.computeIfAbsent(subject, s -> new HashSet<>()).add(subscription);
    }

    /** The models some subscription was found for, with the batch's pks of each. */
    Map<String, Set<String>> concernedPks(Map<String, Set<String>> modelPks) {
        Map<String, Set<String>> concerned = new HashMap<>();
        found.keySet().forEach(subject -> concerned.put(subject.model(), modelPks.get(subject.model())));
        everySubject.forEach((model, wide) -> {
            if (!wide.isEmpty()) {
                concerned.put(model, modelPks.get(model));
            }
        });
        return concerned;
    }

    /**
     * Hands {@code to} the subscriptions an event on {@code subject} goes to, once each, in the order they subscribed:
     * those found for the subject merged with those of its model that take every event. Each is counted as visited.
     */
    void forEachCandidate(ObjectRef subject, Consumer<Subscription> to) {
        List<Subscription> own = new ArrayList<>(found.getOrDefault(subject, Set.of()));
        own.sort(BY_ORDER);
        List<Subscription> wide = everySubjectOrdered.computeIfAbsent(subject.model(), model -> {
            List<Subscription> sorted = new ArrayList<>(everySubject.getOrDefault(model, Set.of()));
            sorted.sort(BY_ORDER);
            return sorted;
        });
        int i = 0;
        int j = 0;
        while (i < own.size() || j < wide.size()) {
            Subscription next;
            if (j == wide.size() || i < own.size() && own.get(i).order() < wide.get(j).order()) {
                next = own.get(i++);
            } else {
                next = wide.get(j++);
                if (i < own.size() && own.get(i) == next) {
                    i++; // in both: handed once
                }
            }
            visited++;
            to.accept(next);
        }
    }

    /** Of the pks asked for the subscription's scope, those its viewer may read now; {@code null}: undecided. */
    Set<String> matches(Subscription subscription) {
        if (!DispatchIndex.keyed(subscription)) {
            return matching.get(subscription.scope());
        }
        if (!decidedGroups.contains(new Group(subscription.model(), subscription.filter()))) {
            return null;
        }
        return keyedMatches.getOrDefault(subscription.scope(), Set.of());
    }

    /** The (event, subscription) pairs handed out so far: what the fan-out of this batch cost. */
    long visited() {
        return visited;
    }
}
