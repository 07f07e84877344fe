package io.objectstreams.demo.store;

import jakarta.ejb.ApplicationException;

/** No order with this id that the caller may see (another user's order is indistinguishable from none). */
@ApplicationException(rollback = true)
public class OrderNotFound extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OrderNotFound(long id) {
        super("No order " + id);
    }

    /** No line {@code line} on order {@code id}, which the caller may see. */
    public OrderNotFound(long id, long line) {
        super("No line " + line + " on order " + id);
    }
}
