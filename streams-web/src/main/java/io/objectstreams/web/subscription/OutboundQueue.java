package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;
import jakarta.json.JsonObject;
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
 * A connection's outbound queue, bounded in bytes (G15) and sent one message at a time, so a client that stops
 * reading never blocks delivery nor any other connection. Events are sent from a sender thread, never from the
 * delivery thread; replies go out from the thread that handles the client's message.
 *
 * <p>An event entry holds two shared strings, its subscription's head and the batch's rendered payload, so a
 * queued event costs {@value #ENTRY_BYTES} bytes of its own. It is charged that plus the length of both
 * strings, as if nothing were shared, so the budget over-counts what the heap really holds.
 *
 * <p>When an event does not fit the connection's share of the budget ({@link OutboundBudget}), the queued events
 * are dropped and each subscription that lost one gets a single {@code resync_required} with reason
 * {@code slow_consumer} (G10), carrying the newest dropped cursor; a later overflow moves that cursor forward
 * instead of queueing a second resync. The queue then holds the replies and one marker per affected
 * subscription. Replies to the client's own messages are never dropped, but they are charged to the budget too:
 * a client that keeps sending without reading, past {@link #CONTROL_SLACK} unread replies or past the budget in
 * replies alone, is disconnected.
 */
final class OutboundQueue {

    private static final Logger LOG = Logger.getLogger(OutboundQueue.class.getName());

    /** Unread replies (subscribed, errors, ...) allowed before the client is disconnected. */
    static final int CONTROL_SLACK = 1_000;

    /** What one queued entry costs besides its strings: the entry object and its slot in the deque. */
    static final int ENTRY_BYTES = 48;

    private final Subscriber subscriber;
    private final OutboundBudget budget;
    private final Executor senders;
    private final DeliveryCounts counts;
    private final QueueDrops drops;
    private final Deque<QueueEntry> queue = new ArrayDeque<>();
    private long queuedBytes;
    private int queuedReplies;
    private boolean sending;
    /** A sender thread has been asked to start sending. */
    private boolean started;
    /** The thread inside this queue's send call, so a send that completes synchronously does not recurse. */
    private Thread inSend;
    private boolean closed;
    private final QueueFaults faults = new QueueFaults();

    OutboundQueue(Subscriber subscriber, OutboundBudget budget, Executor senders) {
        this(subscriber, budget, senders, new DeliveryCounts());
    }

    OutboundQueue(Subscriber subscriber, OutboundBudget budget, Executor senders, DeliveryCounts counts) {
        this.subscriber = subscriber;
        this.budget = budget;
        this.senders = senders;
        this.counts = counts;
        this.drops = new QueueDrops(counts);
    }

    /**
     * Queues a reply or a subscription-level message; never dropped. Sends from the calling thread. Replies are
     * charged to the connection's byte budget like events: when one does not fit, the queued events make room (their
     * subscriptions resync, {@code slow_consumer}); a client whose unread replies alone exceed the budget, or number
     * more than {@value #CONTROL_SLACK}, is disconnected (G12, G15).
     */
    void control(Reply message) {
        boolean overflow;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (message.type() == MessageType.ERROR) {
                counts.refused(message.body().getString("code", "unknown"),
                        ProtocolError.setting(message.body().getJsonObject("details")));
            }
            QueueEntry entry = new QueueEntry(QueueEntry.Kind.REPLY, null, message, message.body().toString(), null,
                    message.cursor());
            if (!budget.admits(queuedBytes, entry.bytes)) {
                dropEvents(new HashMap<>());
            }
            overflow = queuedReplies >= CONTROL_SLACK || !budget.admits(queuedBytes, entry.bytes);
            if (!overflow) {
                add(entry);
                queuedReplies++;
            }
        }
        if (overflow) {
            discard();
            subscriber.close("Too many unread replies", true);
            return;
        }
        pump();
    }

    /**
     * Queues one event of a subscription, or, when it does not fit the budget, drops the queued events and
     * queues resyncs instead. Sending starts on a sender thread.
     */
    void event(Subscription subscription, StreamEvent event, String payload) {
        event(subscription, event.cursor(), payload, event.recordedAt().toEpochMilli());
    }

    /** As above, at {@code cursor}; its latency is measured from {@code recordedAtMillis}, unless that is -1. */
    void event(Subscription subscription, long cursor, String payload, long recordedAtMillis) {
        synchronized (this) {
            if (closed) {
                return;
            }
            QueueEntry entry = new QueueEntry(QueueEntry.Kind.EVENT, subscription, null, subscription.eventHead(),
                    payload, cursor);
            entry.recordedAtMillis = recordedAtMillis;
            if (faults.withholds(entry)) {
                return;
            }
            if (budget.admits(queuedBytes, entry.bytes)) {
                add(entry);
            } else {
                overflow(subscription, cursor);
            }
            QueueEntry extra = faults.after(entry);
            if (extra != null) {
                add(extra);
            }
            if (sending || started) {
                return;
            }
            started = true;
        }
        try {
            senders.execute(() -> {
                synchronized (this) {
                    started = false;
                }
                pump();
            });
        } catch (RejectedExecutionException e) {
            // The application is stopping and its sender threads with it: nothing will be sent any more. Closing
            // tells the client to reconnect (elsewhere, or here once restarted) with its cursor.
            discard();
            subscriber.close("The server is stopping; reconnect with your last cursor", false);
        }
    }

    private void add(QueueEntry entry) {
        queue.add(entry);
        queuedBytes += entry.bytes;
        budget.add(entry.bytes);
    }

    private void remove(QueueEntry entry) {
        queuedBytes -= entry.bytes;
        budget.release(entry.bytes, 1);
        switch (entry.kind) {
            case REPLY -> queuedReplies--;
            case SLOW_CONSUMER -> drops.markerSent(entry.subscription);
            default -> { }
        }
    }

    private void overflow(Subscription subscription, long cursor) {
        Map<Subscription, Long> affected = new HashMap<>();
        affected.put(subscription, cursor);
        drops.counted();
        dropEvents(affected);
    }

    private void dropEvents(Map<Subscription, Long> affected) {
        drops.dropEvents(queue, affected, this::remove, this::add, subscriber.id());
    }

    /**
     * Drops what is queued for a subscription that has ended (its events and its {@code slow_consumer} marker), so
     * nothing of it follows its {@code unsubscribed} or its {@code error}; replies stay.
     */
    synchronized void forget(Subscription subscription) {
        for (Iterator<QueueEntry> it = queue.iterator(); it.hasNext(); ) {
            QueueEntry entry = it.next();
            if (entry.subscription == subscription) {
                it.remove();
                remove(entry);
            }
        }
    }

    /** Nothing queued, and nothing being sent. */
    synchronized boolean idle() {
        return queue.isEmpty() && !sending;
    }

    /** Messages waiting to be sent, for health data. */
    synchronized int size() {
        return queue.size();
    }

    /** Bytes charged for the messages waiting to be sent. */
    synchronized long queuedBytes() {
        return queuedBytes;
    }

    synchronized long droppedEvents() {
        return drops.dropped();
    }

    /** Stops sending and forgets what is queued (the connection is gone), returning its bytes to the budget. */
    synchronized void discard() {
        closed = true;
        budget.release(queuedBytes, queue.size());
        queue.clear();
        drops.clear();
        queuedBytes = 0;
        queuedReplies = 0;
    }

    /** Sends queued messages one at a time; each completion sends the next. */
    private void pump() {
        while (true) {
            QueueEntry next;
            synchronized (this) {
                if (sending || closed || queue.isEmpty()) {
                    return;
                }
                next = queue.poll();
                remove(next);
                sending = true;
                inSend = Thread.currentThread();
            }
            try {
                subscriber.send(next.message(), failure -> sent(next, failure));
            } catch (RuntimeException e) {
                sent(next, e);
            } finally {
                synchronized (this) {
                    inSend = null;
                }
            }
        }
    }

    private void sent(QueueEntry entry, Throwable failure) {
        if (failure == null && entry.kind == QueueEntry.Kind.EVENT) {
            counts.delivered(subscriber.transport(), entry.recordedAtMillis);
        }
        boolean synchronous;
        synchronized (this) {
            sending = false;
            synchronous = inSend == Thread.currentThread();
        }
        if (failure != null) {
            // What was queued is lost to this connection, so it must not stay open and mute: closing it makes the
            // client reconnect with its cursor, and replay or a resync covers the rest (G10).
            LOG.log(Level.FINE, "Send to connection " + subscriber.id() + " failed; closing it", failure);
            discard();
            subscriber.close("A send failed; reconnect with your last cursor", false);
            return;
        }
        if (!synchronous) {
            pump();
        }
    }
}
