package io.objectstreams.web.subscription;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One connection's requests, run in the order they came on the engine's start threads
 * ({@code streams.subscriptions.start-threads}) instead of the transport's. A subscribe reads the database (its
 * members, its replay); on the transport's threads a reconnect storm would hold every one of them, and on Payara
 * those threads also answer MicroProfile Health, which then queued behind the storm for seconds.
 *
 * <p>One request runs at a time per connection, and a connection with more waiting goes to the back of the pool's
 * queue after each, so one busy client cannot hold a start thread while others wait. At most
 * {@code streams.subscriptions.max-pending-requests} wait per connection; {@link #submit} refuses the next.
 */
public final class RequestQueue {

    private static final Logger LOG = Logger.getLogger(RequestQueue.class.getName());

    private final Executor threads;
    private final int maxPending;
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private boolean scheduled;
    private boolean closed;

    RequestQueue(Executor threads, int maxPending) {
        this.threads = threads;
        this.maxPending = maxPending;
    }

    /**
     * Queues a request to run after this connection's earlier ones. Returns false, running nothing, when
     * {@code streams.subscriptions.max-pending-requests} are already waiting; a closed connection's requests are
     * dropped (accepted, never run).
     */
    public boolean submit(Runnable request) {
        synchronized (this) {
            if (closed) {
                return true;
            }
            if (pending.size() >= maxPending) {
                return false;
            }
            pending.add(request);
            if (scheduled) {
                return true;
            }
            scheduled = true;
        }
        schedule();
        return true;
    }

    /** Drops what is waiting; nothing more runs. */
    public synchronized void close() {
        closed = true;
        pending.clear();
    }

    /** The requests waiting, for tests and status. */
    synchronized int size() {
        return pending.size();
    }

    private void schedule() {
        try {
            threads.execute(this::runOne);
        } catch (RejectedExecutionException stopping) {
            // The application is stopping: its connections are being closed, and with them their requests.
            close();
            synchronized (this) {
                scheduled = false;
            }
        }
    }

    private void runOne() {
        Runnable next;
        synchronized (this) {
            next = closed ? null : pending.poll();
            if (next == null) {
                scheduled = false;
                return;
            }
        }
        try {
            next.run();
        } catch (RuntimeException e) {
            // Each request answers its own failures; this keeps the connection's later requests running.
            LOG.log(Level.WARNING, "A client request failed unanswered", e);
        }
        synchronized (this) {
            if (closed || pending.isEmpty()) {
                scheduled = false;
                return;
            }
        }
        schedule();
    }
}
