package io.objectstreams.it.support.server;

/** Thrown on purpose by a scenario; the container rolls the transaction back. */
public class ScenarioFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ScenarioFailure(String message) {
        super(message);
    }
}
