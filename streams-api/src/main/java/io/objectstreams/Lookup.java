package io.objectstreams;

/** How a filter compares an attribute with the value a subscriber sent (see {@link Filterable}). */
public enum Lookup {

    /** Equal to the value: key {@code name}. */
    EXACT(""),
    /** Equal to one of a list of values (a JSON array, or a comma-separated string): key {@code name__in}. */
    IN("in"),
    /** Greater than: key {@code name__gt}. */
    GT("gt"),
    /** Greater than or equal: key {@code name__gte}. */
    GTE("gte"),
    /** Less than: key {@code name__lt}. */
    LT("lt"),
    /** Less than or equal: key {@code name__lte}. */
    LTE("lte"),
    /** Null ({@code true}) or not null ({@code false}): key {@code name__isnull}. */
    ISNULL("isnull");

    private final String suffix;

    Lookup(String suffix) {
        this.suffix = suffix;
    }

    /** The part after {@code __} in a filter key; empty for {@link #EXACT}. */
    public String suffix() {
        return suffix;
    }

    /** Whether the lookup orders values, so the attribute's type must be comparable. */
    public boolean isRange() {
        return this == GT || this == GTE || this == LT || this == LTE;
    }
}
