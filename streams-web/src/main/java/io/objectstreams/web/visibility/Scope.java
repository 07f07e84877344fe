package io.objectstreams.web.visibility;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityKeys;
import io.objectstreams.web.filter.Filter;
import java.util.Objects;

/**
 * What one subscription asks visibility: a viewer, a model, a filter, and under a
 * {@link io.objectstreams.KeyedVisibilityPolicy} the keys the viewer held when the subscription started
 * ({@link Visibility#scope}). Every subscription holds its scope from the start, with the hash computed once,
 * because fan-out groups thousands of subscriptions by scope on every batch. The keys are part of the scope's
 * identity: two subscriptions of one viewer whose keys changed in between are decided each with its own.
 */
public final class Scope {

    private final Viewer viewer;
    private final String model;
    private final Filter filter;
    private final VisibilityKeys keys;
    private final int hash;

    /** A scope whose keys, under a keyed policy, are asked of the policy each time it is decided. */
    public Scope(Viewer viewer, String model, Filter filter) {
        this(viewer, model, filter, null);
    }

    /** A scope holding the viewer's keys under a keyed policy, as {@link Visibility#scope} makes one. */
    public Scope(Viewer viewer, String model, Filter filter, VisibilityKeys keys) {
        this.viewer = viewer;
        this.model = model;
        this.filter = filter;
        this.keys = keys;
        this.hash = Objects.hash(viewer, model, filter, keys);
    }

    public Viewer viewer() {
        return viewer;
    }

    public String model() {
        return model;
    }

    public Filter filter() {
        return filter;
    }

    /** Whether the scope holds its viewer's keys under a keyed policy, from its subscription's start. */
    public boolean holdsKeys() {
        return keys != null;
    }

    /**
     * Whether the scope holds every object of its model whatever its state: every key under a keyed policy, and no
     * filter. Such a scope matches an object exactly while it exists, so an earlier row of a batch can be decided for
     * it without the state after that row, which is gone by the time the batch is decided (G17).
     */
    public boolean seesEveryObject() {
        return keys != null && keys.isAll() && filter.conditions().isEmpty();
    }

    /** The viewer's keys as the subscription started, or {@code null}: not keyed, or to be asked when decided. */
    public VisibilityKeys keys() {
        return keys;
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof Scope that && hash == that.hash && viewer.equals(that.viewer)
                && model.equals(that.model) && filter.equals(that.filter) && Objects.equals(keys, that.keys);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
