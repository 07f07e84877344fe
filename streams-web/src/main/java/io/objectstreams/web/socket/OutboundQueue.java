package io.objectstreams.web.socket;

import jakarta.json.JsonObject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A connection's bounded outbound queue, sent one message at a time with the container's asynchronous send, so
 * a client that stops reading never blocks the listener thread nor any other session. Events are sent from a
 * sender thread, never from the listener's; replies go out from the thread that handles the client's message.
 *
 * <p>When the queued events reach {@code streams.websocket.outbound-queue}, they are dropped and each
 * subscription that lost one gets a single {@code resync_required} with reason {@code slow_consumer} (G10),
 * carrying the newest dropped cursor; a later overflow moves that cursor forward instead of queueing a second
 * resync. So the queue holds at most the limit in events plus one resync per subscription. Replies to the
 * client's own messages are never dropped; a client that keeps sending without reading past
 * {@link #CONTROL_SLACK} unread replies is disconnected (1008).
 */
final class OutboundQueue {

    private static final Logger LOG = Logger.getLogger(OutboundQueue.class.getName());

    /** Unread replies (subscribed, errors, ...) allowed beyond the event limit before the client is disconnected. */
    static final int CONTROL_SLACK = 1_000;


    private final Session socket;
    private final int eventLimit;
    private final Executor senders;
    /** The context class loader sends run with, or {@code null} for the caller's (see Subscriptions#sendLoader). */
    private final ClassLoader sendLoader;
    private final Deque<Entry> queue = new ArrayDeque<>();
    private final Map<String, Entry> slowResyncs = new HashMap<>();
    private int queuedEvents;
    private boolean sending;
    /** A sender thread has been asked to start sending. */
    private boolean started;
    /** The thread inside this queue's send call, so a send that completes synchronously does not recurse. */
    private Thread inSend;
    private boolean closed;
    private long droppedEvents;

    private static final class Entry {
        final String subscriptionId;
        final boolean event;
        final JsonObject message;
        long cursor;

        Entry(String subscriptionId, boolean event, JsonObject message, long cursor) {
            this.subscriptionId = subscriptionId;
            this.event = event;
            this.message = message;
            this.cursor = cursor;
        }

        String render() {
            return message != null ? message.toString()
                    : Messages.resyncRequired(subscriptionId, cursor, "slow_consumer").toString();
        }
    }

    OutboundQueue(Session socket, int eventLimit, Executor senders, ClassLoader sendLoader) {
        this.socket = socket;
        this.eventLimit = eventLimit;
        this.senders = senders;
        this.sendLoader = sendLoader;
    }

    /** Queues a reply or a subscription-level message; never dropped. */
    void control(JsonObject message) {
        boolean overflow;
        synchronized (this) {
            if (closed) {
                return;
            }
            queue.add(new Entry(null, false, message, 0));
            overflow = queue.size() - queuedEvents - slowResyncs.size() > CONTROL_SLACK;
        }
        if (overflow) {
            close(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, "Too many unread replies"));
            return;
        }
        pump();
    }

    /** Queues one event of a subscription; on overflow, drops the queued events and queues resyncs instead. */
    void event(String subscriptionId, long cursor, JsonObject message) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (queuedEvents >= eventLimit) {
                overflow(subscriptionId, cursor);
            } else {
                queue.add(new Entry(subscriptionId, true, message, cursor));
                queuedEvents++;
            }
            if (sending || started) {
                return;
            }
            started = true;
        }
        // Events come from the listener thread: a sender thread does the sending (see Subscriptions#senders).
        try {
            senders.execute(() -> {
                synchronized (this) {
                    started = false;
                }
                pump();
            });
        } catch (RejectedExecutionException e) {
            // The application is stopping and its sender threads with it: nothing will be sent any more.
            discard();
        }
    }

    private void overflow(String subscriptionId, long cursor) {
        Map<String, Long> affected = new HashMap<>();
        affected.put(subscriptionId, cursor);
        for (Iterator<Entry> it = queue.iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (entry.event) {
                affected.merge(entry.subscriptionId, entry.cursor, Math::max);
                it.remove();
                droppedEvents++;
            }
        }
        droppedEvents++;
        queuedEvents = 0;
        affected.forEach((id, newest) -> {
            Entry pending = slowResyncs.get(id);
            if (pending != null) {
                pending.cursor = Math.max(pending.cursor, newest);
            } else {
                Entry resync = new Entry(id, false, null, newest);
                slowResyncs.put(id, resync);
                queue.add(resync);
            }
        });
        LOG.fine(() -> "WebSocket session " + socket.getId() + " is not keeping up: dropped its queued events, "
                + affected.size() + " subscriptions told to resync (slow_consumer)");
    }

    /** Messages waiting to be sent, for health data. */
    synchronized int size() {
        return queue.size();
    }

    synchronized long droppedEvents() {
        return droppedEvents;
    }

    /** Stops sending and forgets what is queued (the connection is gone). */
    synchronized void discard() {
        closed = true;
        queue.clear();
        slowResyncs.clear();
        queuedEvents = 0;
    }

    /** Sends queued messages one at a time; each completion sends the next. */
    private void pump() {
        while (true) {
            Entry next;
            synchronized (this) {
                if (sending || closed || queue.isEmpty()) {
                    return;
                }
                next = queue.poll();
                if (next.event) {
                    queuedEvents--;
                } else if (next.message == null) {
                    slowResyncs.remove(next.subscriptionId);
                }
                sending = true;
                inSend = Thread.currentThread();
            }
            Thread current = Thread.currentThread();
            ClassLoader application = current.getContextClassLoader();
            try {
                String text = next.render();
                if (sendLoader != null) {
                    current.setContextClassLoader(sendLoader);
                }
                socket.getAsyncRemote().sendText(text, this::sent);
            } catch (RuntimeException e) {
                sent(new SendResult(e));
            } finally {
                current.setContextClassLoader(application);
                synchronized (this) {
                    inSend = null;
                }
            }
        }
    }

    private void sent(SendResult result) {
        boolean synchronous;
        synchronized (this) {
            sending = false;
            synchronous = inSend == Thread.currentThread();
        }
        if (!result.isOK()) {
            LOG.log(Level.FINE, "Send to WebSocket session " + socket.getId() + " failed", result.getException());
            discard();
            return;
        }
        if (!synchronous) {
            pump();
        }
    }

    private void close(CloseReason reason) {
        discard();
        try {
            socket.close(reason);
        } catch (IOException | IllegalStateException e) {
            LOG.log(Level.FINE, "Closing WebSocket session " + socket.getId() + " failed", e);
        }
    }
}
