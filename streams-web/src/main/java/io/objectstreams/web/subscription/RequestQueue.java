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
 * {@code streams.subscriptions.max-pending-requests} wait per connection, holding at most the frame limit's worth of
 * the client's text; {@link #submit} waits for room.
 */
public final class RequestQueue {

    private static final Logger LOG = Logger.getLogger(RequestQueue.class.getName());

    private final Executor threads;
    private final int maxPending;
    private final long maxPendingChars;
    private final ArrayDeque<Waiting> pending = new ArrayDeque<>();
    private long pendingChars;
    private boolean scheduled;
    private boolean closed;
    /** Callers of {@link #submit} waiting for room: the transport reads nothing more of the connection meanwhile. */
    private int waitingForRoom;

    private record Waiting(Runnable request, int chars) {
    }

    /**
     * @param maxPending      requests that may wait ({@code streams.subscriptions.max-pending-requests})
     * @param maxPendingChars characters of requests that may wait besides the first: a client's text is held here
     *                        only up to this (the frame limit), whatever it pipelines
     */
    RequestQueue(Executor threads, int maxPending, long maxPendingChars) {
        this.threads = threads;
        this.maxPending = maxPending;
        this.maxPendingChars = maxPendingChars;
    }

    /**
     * Queues a request of {@code chars} characters (the client's text it holds) to run after this connection's
     * earlier ones. While {@code streams.subscriptions.max-pending-requests} are waiting, or they hold the frame
     * limit's worth of text, the caller (the transport's thread reading this connection) waits for room: a client
     * that sends faster than it is answered is slowed down by TCP, as when requests ran on that thread, and what it
     * sent never piles up in memory. A closed connection's requests are dropped. Returns false, queueing nothing,
     * when the caller is interrupted while it waits or the pool refuses work (the application is stopping): the
     * caller answers the client.
     */
    public boolean submit(Runnable request, int chars) {
        synchronized (this) {
            while (!closed && (pending.size() >= maxPending
                    || !pending.isEmpty() && pendingChars + chars > maxPendingChars)) {
                waitingForRoom++;
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                } finally {
                    waitingForRoom--;
                }
            }
            if (closed) {
                return true;
            }
            pending.add(new Waiting(request, chars));
            pendingChars += chars;
            if (scheduled) {
                return true;
            }
            scheduled = true;
        }
        return schedule();
    }

    /** Drops what is waiting; nothing more runs. */
    public synchronized void close() {
        closed = true;
        pending.clear();
        pendingChars = 0;
        notifyAll();
    }

    /**
     * Whether the connection's reader is held in {@link #submit}, waiting for room: what the client sent since, its
     * pongs included, is not read yet, so its silence says nothing about the client.
     */
    public synchronized boolean holdsReader() {
        return waitingForRoom > 0;
    }

    /** The requests waiting, for tests and status. */
    synchronized int size() {
        return pending.size();
    }

    private boolean schedule() {
        try {
            threads.execute(this::runOne);
            return true;
        } catch (RejectedExecutionException stopping) {
            // The application is stopping: its connections are being closed, and with them their requests.
            synchronized (this) {
                scheduled = false;
            }
            close();
            return false;
        }
    }

    private void runOne() {
        Waiting next;
        synchronized (this) {
            next = closed ? null : pending.poll();
            if (next == null) {
                scheduled = false;
                return;
            }
            pendingChars -= next.chars();
            notifyAll();
        }
        try {
            next.request().run();
        } catch (RuntimeException e) {
            // Each request answers its own failures; this keeps the connection's later requests running.
            LOG.log(Level.WARNING, "A client request failed unanswered", e);
        } finally {
            // Even after an Error, the connection's later requests are not left waiting for a run that never comes.
            boolean more;
            synchronized (this) {
                more = !closed && !pending.isEmpty();
                scheduled = more;
            }
            if (more) {
                schedule();
            }
        }
    }
}
