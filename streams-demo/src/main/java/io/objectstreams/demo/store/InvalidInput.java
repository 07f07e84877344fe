package io.objectstreams.demo.store;

import jakarta.ejb.ApplicationException;

/** A request body or parameter that cannot be accepted; answered with 400 naming the field. */
@ApplicationException(rollback = true)
public class InvalidInput extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public InvalidInput(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
