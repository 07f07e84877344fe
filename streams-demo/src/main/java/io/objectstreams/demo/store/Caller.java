package io.objectstreams.demo.store;

/** The authenticated user of a request: customers see their own orders, staff see all. */
public record Caller(String name, boolean staff) {

    boolean canSee(CustomerOrder order) {
        return staff || order.getOwner().equals(name);
    }
}
