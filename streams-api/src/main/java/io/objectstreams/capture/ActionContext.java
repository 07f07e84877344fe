package io.objectstreams.capture;

import java.util.Optional;

/**
 * Who is acting and under which correlation id, for the thread running a {@link io.objectstreams.StreamsAction}
 * method. Set by {@link StreamsActionInterceptor}; read when a change is recorded.
 *
 * @param actor         the caller principal's name, or {@code null} when unauthenticated
 * @param correlationId an id shared by every change the action makes, across its transactions
 */
public record ActionContext(String actor, String correlationId) {

    private static final ThreadLocal<ActionContext> CURRENT = new ThreadLocal<>();

    /** The action running on this thread, if any. */
    public static Optional<ActionContext> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    static void open(ActionContext context) {
        CURRENT.set(context);
    }

    static void close() {
        CURRENT.remove();
    }
}
