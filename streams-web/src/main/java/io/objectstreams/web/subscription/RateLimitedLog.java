package io.objectstreams.web.subscription;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs a recurring failure at WARNING at most once per interval, with its stack trace and how many like it were
 * logged only at FINE since the last one. For failures a client can trigger at will: each still gets its answer,
 * but a burst of them cannot flood the server's log (G12).
 */
public final class RateLimitedLog {

    private final long intervalNanos;
    private final AtomicLong nextWarning = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    public RateLimitedLog(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    public void log(Logger log, String message, Throwable failure) {
        long now = System.nanoTime();
        long next = nextWarning.get();
        if ((next == Long.MIN_VALUE || now - next >= 0) && nextWarning.compareAndSet(next, now + intervalNanos)) {
            long quiet = suppressed.getAndSet(0);
            log.log(Level.WARNING, message
                    + (quiet == 0 ? "" : " (" + quiet + " more since the last warning, logged at FINE)"), failure);
        } else {
            suppressed.incrementAndGet();
            log.log(Level.FINE, message, failure);
        }
    }
}
