package io.objectstreams.internal.listener;

import io.objectstreams.feed.ListenerSettings;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The capped exponential backoff shared by the listener and delivery threads (G6). */
final class Backoff {

    private Backoff() {
    }

    /** {@code streams.listener.retry-delay} doubled per consecutive failure, capped at {@code max-retry-delay}. */
    static Duration delay(ListenerSettings settings, int failures) {
        Duration delay = settings.retryDelay().multipliedBy(1L << Math.min(Math.max(failures, 1) - 1, 20));
        return delay.compareTo(settings.maxRetryDelay()) > 0 ? settings.maxRetryDelay() : delay;
    }

    /** Sleeps for {@code delay}, in short steps, returning early once {@code running} turns false. */
    static void pause(Duration delay, BooleanSupplier running) {
        long until = System.nanoTime() + delay.toNanos();
        while (running.getAsBoolean() && System.nanoTime() < until) {
            try {
                Thread.sleep(Math.min(100, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
