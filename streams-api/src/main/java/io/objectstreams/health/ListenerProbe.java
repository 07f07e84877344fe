package io.objectstreams.health;

/** Implemented by the listener in {@code streams-ejb}; applications do not implement it. */
@FunctionalInterface
public interface ListenerProbe {

    /** A fresh report; may query the database for the backlog. */
    ListenerReport report();
}
