package io.objectstreams.web.subscription;

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
 * subscription. Replies to the client's own messages are never dropped; a client that keeps sending without
 * reading past {@link #CONTROL_SLACK} unread replies is disconnected.
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
    private final Deque<Entry> queue = new ArrayDeque<>();
    private final Map<String, Entry> slowResyncs = new HashMap<>();
    private long queuedBytes;
    private int queuedReplies;
    private boolean sending;
    /** A sender thread has been asked to start sending. */
    private boolean started;
    /** The thread inside this queue's send call, so a send that completes synchronously does not recurse. */
    private Thread inSend;
    private boolean closed;
    private long droppedEvents;

    private enum Kind { REPLY, EVENT, SLOW_CONSUMER }

    private static final class Entry {
        final Kind kind;
        /** An event's or a marker's subscription; {@code null} for a reply. */
        final String subscriptionId;
        /** A reply's type and resync reason; {@code null} for an event or a marker. */
        final Reply reply;
        /** The whole reply; or an event's shared head; {@code null} for a slow-consumer marker. */
        final String head;
        /** An event's shared payload; {@code null} otherwise. */
        final String payload;
        final int bytes;
        /** The message's cursor; -1 for a reply that has none. */
        long cursor;

        Entry(Kind kind, String subscriptionId, Reply reply, String head, String payload, long cursor) {
            this.kind = kind;
            this.subscriptionId = subscriptionId;
            this.reply = reply;
            this.head = head;
            this.payload = payload;
            this.cursor = cursor;
            this.bytes = ENTRY_BYTES + (head == null ? 0 : head.length()) + (payload == null ? 0 : payload.length());
        }

        OutboundMessage message() {
            return switch (kind) {
                case REPLY -> new OutboundMessage(reply.type(), cursor, reply.resyncReason(), head);
                case EVENT -> new OutboundMessage(MessageType.EVENT, cursor, null, head.concat(payload));
                case SLOW_CONSUMER -> new OutboundMessage(MessageType.RESYNC_REQUIRED, cursor, ResyncReason.SLOW_CONSUMER,
                        Messages.resyncRequired(subscriptionId, cursor, ResyncReason.SLOW_CONSUMER).body().toString());
            };
        }
    }

    OutboundQueue(Subscriber subscriber, OutboundBudget budget, Executor senders) {
        this(subscriber, budget, senders, new DeliveryCounts());
    }

    OutboundQueue(Subscriber subscriber, OutboundBudget budget, Executor senders, DeliveryCounts counts) {
        this.subscriber = subscriber;
        this.budget = budget;
        this.senders = senders;
        this.counts = counts;
    }

    /** Queues a reply or a subscription-level message; never dropped. Sends from the calling thread. */
    void control(Reply message) {
        boolean overflow;
        synchronized (this) {
            if (closed) {
                return;
            }
            add(new Entry(Kind.REPLY, null, message, message.body().toString(), null, message.cursor()));
            queuedReplies++;
            overflow = queuedReplies > CONTROL_SLACK;
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
    void event(Subscription subscription, long cursor, String payload) {
        synchronized (this) {
            if (closed) {
                return;
            }
            Entry entry = new Entry(Kind.EVENT, subscription.id(), null, subscription.eventHead(), payload, cursor);
            if (budget.admits(queuedBytes, entry.bytes)) {
                add(entry);
            } else {
                overflow(subscription.id(), cursor);
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

    private void add(Entry entry) {
        queue.add(entry);
        queuedBytes += entry.bytes;
        budget.add(entry.bytes);
    }

    private void remove(Entry entry) {
        queuedBytes -= entry.bytes;
        budget.release(entry.bytes);
        switch (entry.kind) {
            case REPLY -> queuedReplies--;
            case SLOW_CONSUMER -> slowResyncs.remove(entry.subscriptionId);
            default -> { }
        }
    }

    private void overflow(String subscriptionId, long cursor) {
        Map<String, Long> affected = new HashMap<>();
        affected.put(subscriptionId, cursor);
        for (Iterator<Entry> it = queue.iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (entry.kind == Kind.EVENT) {
                affected.merge(entry.subscriptionId, entry.cursor, Math::max);
                it.remove();
                remove(entry);
                droppedEvents++;
            }
        }
        droppedEvents++;
        affected.forEach((id, newest) -> {
            Entry pending = slowResyncs.get(id);
            if (pending != null) {
                pending.cursor = Math.max(pending.cursor, newest);
            } else {
                Entry resync = new Entry(Kind.SLOW_CONSUMER, id, null, null, null, newest);
                slowResyncs.put(id, resync);
                add(resync);
                counts.resync(ResyncReason.SLOW_CONSUMER);
            }
        });
        LOG.fine(() -> "Connection " + subscriber.id() + " is not keeping up: dropped its queued events, "
                + affected.size() + " subscriptions told to resync (slow_consumer)");
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
        return droppedEvents;
    }

    /** Stops sending and forgets what is queued (the connection is gone), returning its bytes to the budget. */
    synchronized void discard() {
        closed = true;
        queue.clear();
        slowResyncs.clear();
        budget.release(queuedBytes);
        queuedBytes = 0;
        queuedReplies = 0;
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
                remove(next);
                sending = true;
                inSend = Thread.currentThread();
            }
            try {
                Kind kind = next.kind;
                subscriber.send(next.message(), failure -> sent(kind, failure));
            } catch (RuntimeException e) {
                sent(next.kind, e);
            } finally {
                synchronized (this) {
                    inSend = null;
                }
            }
        }
    }

    private void sent(Kind kind, Throwable failure) {
        if (failure == null && kind == Kind.EVENT) {
            counts.delivered();
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
