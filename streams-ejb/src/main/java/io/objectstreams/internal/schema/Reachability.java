package io.objectstreams.internal.schema;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells a database that cannot be reached now from one that refuses what was asked, and retries the first kind
 * for a bounded time. A server may start while PostgreSQL restarts: its first connections are refused, or come
 * from a pool that still holds sessions the restart killed. That is worth waiting for; a missing privilege or a
 * bad statement is not.
 */
final class Reachability {

    private static final Logger LOG = Logger.getLogger(Reachability.class.getName());

    /** Waits between attempts; tests pass their own. */
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    static final Sleeper SLEEP = duration -> Thread.sleep(duration.toMillis());

    private static final Duration FIRST_DELAY = Duration.ofMillis(500);
    private static final Duration MAX_DELAY = Duration.ofSeconds(5);

    private Reachability() {
    }

    /**
     * Whether {@code failure} (or any of its causes, however the pool wrapped it) says the database could not be
     * reached: a connection error (SQLState class 08), or a server shutting down or starting (57P01 to 57P03).
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * Runs {@code work}, again after a growing delay while the database is unreachable, until {@code timeout} has
     * passed.
     */
    static <T> T retry(Supplier<T> work, Duration timeout, Sleeper sleeper, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Duration delay = FIRST_DELAY;
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                long left = deadline - System.nanoTime();
                if (!unreachable(e) || left <= 0) {
                    throw e;
                }
                Duration wait = Duration.ofNanos(Math.min(delay.toNanos(), left));
                LOG.log(Level.WARNING, what + " (attempt " + attempt + ": " + rootMessage(e) + "); retrying in "
                        + wait.toMillis() + " ms, for up to " + timeout.toSeconds() + " s in all");
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                delay = delay.multipliedBy(2).compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay.multipliedBy(2);
            }
        }
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
