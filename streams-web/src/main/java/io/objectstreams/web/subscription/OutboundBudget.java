package io.objectstreams.web.subscription;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * The bytes queued for clients on this instance, bounded per connection ({@code streams.outbound.max-connection-bytes})
 * and for the whole server ({@code streams.outbound.max-server-bytes}) whatever the number of connections (G15).
 *
 * <p>While the server is within its budget, a connection may queue up to its own limit. Once the server is over
 * it, a connection may only queue up to its fair share (the server budget divided by the connections), so the
 * connections that lag the most are the ones told to resync, and the total stays within the budget plus at most
 * one message per connection.
 */
final class OutboundBudget {

    private final long maxConnectionBytes;
    private final long maxServerBytes;
    private final IntSupplier connections;
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong messages = new AtomicLong();

    OutboundBudget(long maxConnectionBytes, long maxServerBytes, IntSupplier connections) {
        this.maxConnectionBytes = maxConnectionBytes;
        this.maxServerBytes = maxServerBytes;
        this.connections = connections;
    }

    /** Whether a connection that holds {@code connectionBytes} may queue {@code bytes} more. */
    boolean admits(long connectionBytes, long bytes) {
        long after = connectionBytes + bytes;
        if (after > maxConnectionBytes) {
            return false;
        }
        return queued.get() + bytes <= maxServerBytes || after <= maxServerBytes / Math.max(1, connections.getAsInt());
    }

    /** One message of {@code bytes} was queued. */
    void add(long bytes) {
        queued.addAndGet(bytes);
        messages.incrementAndGet();
    }

    /** {@code count} messages of {@code bytes} together left their queue. */
    void release(long bytes, int count) {
        queued.addAndGet(-bytes);
        messages.addAndGet(-count);
    }

    long queuedMessages() {
        return messages.get();
    }

    long queuedBytes() {
        return queued.get();
    }

    long maxServerBytes() {
        return maxServerBytes;
    }

    long maxConnectionBytes() {
        return maxConnectionBytes;
    }
}
