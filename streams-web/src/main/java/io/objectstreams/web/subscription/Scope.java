package io.objectstreams.web.subscription;

import io.objectstreams.Viewer;
import io.objectstreams.web.filter.Filter;
import java.util.Objects;

/**
 * One membership query's worth: a viewer, a model, a filter. Every subscription holds its scope from the start,
 * with the hash computed once, because fan-out groups thousands of subscriptions by scope on every batch.
 */
final class Scope {

    private final Viewer viewer;
    private final String model;
    private final Filter filter;
    private final int hash;

    Scope(Viewer viewer, String model, Filter filter) {
        this.viewer = viewer;
        this.model = model;
        this.filter = filter;
        this.hash = Objects.hash(viewer, model, filter);
    }

    Viewer viewer() {
        return viewer;
    }

    String model() {
        return model;
    }

    Filter filter() {
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
