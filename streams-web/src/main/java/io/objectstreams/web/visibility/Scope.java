package io.objectstreams.web.visibility;

import io.objectstreams.Viewer;
import io.objectstreams.web.filter.Filter;
import java.util.Objects;

/**
 * What one subscription asks visibility: a viewer, a model, a filter. Every subscription holds its scope from the
 * start, with the hash computed once, because fan-out groups thousands of subscriptions by scope on every batch;
 * under a {@link io.objectstreams.KeyedVisibilityPolicy} the scope also keeps the viewer's keys, asked once.
 */
public final class Scope {

    private final Viewer viewer;
    private final String model;
    private final Filter filter;
    private final int hash;

    /** The viewer's keys under a keyed policy, once {@link Visibility} has asked for them. */
    volatile io.objectstreams.VisibilityKeys keys;

    public Scope(Viewer viewer, String model, Filter filter) {
        this.viewer = viewer;
        this.model = model;
        this.filter = filter;
        this.hash = Objects.hash(viewer, model, filter);
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

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof Scope that && hash == that.hash && viewer.equals(that.viewer)
                && model.equals(that.model) && filter.equals(that.filter);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
