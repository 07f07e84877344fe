package io.objectstreams.web.filter;

import java.util.List;
import java.util.Map;

/** A subscriber's filter failed validation; {@link #errors()} names each offending key with its problems. */
public final class InvalidFilterException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Map<String, List<String>> errors;

    InvalidFilterException(Map<String, List<String>> errors) {
        super("Subscription filters are invalid: " + errors, null, false, false);
        this.errors = Map.copyOf(errors);
    }

    /** Filter key → messages, as sent in the protocol error's {@code details}. */
    public Map<String, List<String>> errors() {
        return errors;
    }
}
