package io.objectstreams.web.sse;

import io.objectstreams.protocol.MessageType;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.web.subscription.OutboundMessage;
import io.objectstreams.web.subscription.Subscriber;
import io.objectstreams.web.subscription.ConnectionRegistry;
import io.objectstreams.web.testing.DeliveryFaults;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One Server-Sent Events connection as the engine sees it: each protocol message becomes one frame
 * ({@code id:} its cursor, {@code event:} its type, {@code data:} the same JSON the WebSocket sends), written by an
 * {@link SseWriter} with the servlet's non-blocking output, so a client that stops reading holds no thread: its
 * frames wait in the engine's byte-bounded queue, which tells it to resync ({@code slow_consumer}) and this
 * connection then closes.
 *
 * <p>A message the engine sends before the stream has opened (the subscription's {@code subscribed}, while the
 * servlet still decides) is held and written right after the preamble. Every way the connection ends (client
 * gone, write failed, lifetime reached, engine closing it) releases it from the engine, once.
 */
final class SseSubscriber implements Subscriber, AsyncListener {

    private static final Logger LOG = Logger.getLogger(SseSubscriber.class.getName());
    private static final AtomicLong IDS = new AtomicLong();
    private static final byte[] PING = ": ping\n\n".getBytes(StandardCharsets.UTF_8);
    /** Written one tick after a heartbeat to look at the connection again: nothing reaches the client. */
    private static final byte[] PROBE = new byte[0];

    private final String id = "sse:" + IDS.incrementAndGet();
    private final ConnectionRegistry engine;
    private final SseWriter writer = new SseWriter(this::lastChunkWritten, this::failed);
    private AsyncContext async;
    /** Why the server is ending this stream, once it decided to; counted when the stream is released. */
    private String endCause;
    private long pingEvery;
    private long nextPing;
    private long endsAt;
    /** The lifetime's end was reached and the closing comment queued. */
    private boolean ending;
    /** Forgets this stream in the keep-alive's clock; run once, when the stream is released. */
    private Runnable released;
    /** A heartbeat was handed to the container since the last tick: the next tick writes {@link #PROBE}. */
    private boolean probeOwed;
    /** The cursor the engine has sent this stream everything through, or -1 ({@code StreamSession#broughtUpTo}). */
    private LongSupplier broughtUpTo = () -> -1;

    SseSubscriber(ConnectionRegistry engine) {
        this.engine = engine;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String transport() {
        return "sse";
    }

    /**
     * Opens the stream: the preamble ({@code retry:} and a comment naming the subscription and its end), then any
     * held message. Heartbeats and the lifetime's end come from {@link #tick}, which {@link SseKeepAlive}'s one
     * clock calls for every open stream.
     */
    void start(AsyncContext context, String preamble, Duration heartbeatEvery, Duration lifetime, Runnable onRelease,
               LongSupplier broughtUpTo) throws IOException {
        ServletOutputStream out;
        synchronized (this) {
            this.broughtUpTo = broughtUpTo;
            released = onRelease;
            async = context; // with no timeout, and this subscriber's listener registered (SseServlet)
            out = async.getResponse().getOutputStream();
            long now = System.nanoTime();
            pingEvery = heartbeatEvery.toNanos();
            nextPing = now + pingEvery;
            endsAt = now + lifetime.toNanos();
        }
        writer.start(out, preamble.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Pings when a heartbeat is due and ends the stream when its lifetime has passed. Returns false once the
     * stream is released, so the clock forgets it.
     */
    boolean tick(long now) {
        if (writer.closed()) {
            return false;
        }
        // Nothing written for two heartbeats: the client stopped reading, or left without the container
        // noticing (Payara sometimes never reports a write to a closed connection). Let it go; a client that
        // is still there reconnects with its last cursor and is replayed what it missed.
        boolean stalled = writer.stalled(now, 2 * heartbeatNanos());
        boolean end;
        boolean ping;
        boolean probe;
        synchronized (this) {
            end = !stalled && !ending && now - endsAt >= 0;
            ending |= end;
            ping = !stalled && !ending && now - nextPing >= 0;
            if (ping) {
                nextPing = now + pingEvery;
            }
            probe = !stalled && !end && !ping && probeOwed;
            probeOwed = false;
        }
        if (stalled) {
            endBecause("stalled");
            release(null);
            complete();
            return false;
        }
        if (end) {
            finish(": closing, reconnect\n\n", "lifetime");
        } else if (ping) {
            heartbeat();
        } else if (probe) {
            probe();
        }
        return true;
    }

    private synchronized long heartbeatNanos() {
        return pingEvery;
    }

    @Override
    public void send(OutboundMessage message, Consumer<Throwable> done) {
        StringBuilder frame = new StringBuilder(message.text().length() + 48);
        long id = -1;
        if (message.cursor() >= 0) {
            boolean ahead = message.type() == MessageType.SUBSCRIBED
                    && DeliveryFaults.fire(DeliveryFaults.Fault.FUTURE_SUBSCRIBED_ID);
            id = ahead ? message.cursor() + 3 : message.cursor();
            frame.append("id: ").append(id).append('\n');
        }
        frame.append("event: ").append(message.type().wireName()).append('\n').append("data: ").append(message.text())
                .append("\n\n");
        // A client too slow for its queue is told to resync, then let go: it reconnects from that cursor.
        boolean closeAfter = message.resyncReason() == ResyncReason.SLOW_CONSUMER;
        if (closeAfter) {
            endBecause(ResyncReason.SLOW_CONSUMER.wireName());
        }
        writer.write(new SseWriter.Chunk(frame.toString().getBytes(StandardCharsets.UTF_8), done, closeAfter, id));
    }

    @Override
    public void close(String reason, boolean clientFault) {
        finish(": closing: " + reason.replace('\n', ' ') + "\n\n", clientFault ? "client_fault" : "server_closed");
    }

    private synchronized void endBecause(String cause) {
        if (endCause == null) {
            endCause = cause;
        }
    }

    /**
     * Writes {@link #PROBE} one tick after a heartbeat: nothing, to learn whether the heartbeat found the
     * connection gone. A client that left still takes its first heartbeat (the socket accepts it); the second one's
     * write fails. Undertow reports that failure to the write listener. Payara's Grizzly only closes the
     * connection, and the write after it throws, so without the probe the stream would be held until its third
     * heartbeat. An empty write costs nothing on the wire. Only the clock's thread calls this.
     */
    private void probe() {
        writer.writeIfIdle(PROBE);
    }

    /**
     * Writes a heartbeat when nothing else is being written: {@code : ping}, with {@code id:} the cursor the engine
     * has sent this stream everything through, when that is newer than any id written. The browser keeps an id even
     * from an event with no data, as its {@code Last-Event-ID}: a stream whose subscription heard nothing while others
     * wrote then resumes from there, rather than replaying, or resyncing over, everything since its last event (G10).
     * The cursor is read outside this object's lock, which must not be held while the session's is taken.
     */
    private void heartbeat() {
        if (writer.heartbeatIfIdle(broughtUpTo.getAsLong(), PING)) {
            synchronized (this) {
                probeOwed = true;
            }
        }
    }

    /** Writes a last comment and completes the response. */
    private void finish(String comment, String cause) {
        endBecause(cause);
        writer.write(new SseWriter.Chunk(comment.getBytes(StandardCharsets.UTF_8), null, true));
    }

    /** The writer wrote the last chunk. */
    private void lastChunkWritten() {
        release(null);
        complete();
    }

    /** The writer could not write. */
    private void failed(Throwable failure) {
        LOG.log(Level.FINE, "SSE connection " + id + " failed", failure);
        release("write_failed");
        complete();
    }

    /** Forgets the connection in the engine, and everything queued for it; once. */
    private void release(String cause) {
        // Never the writer's lock under this one: the container may call this listener from inside a write.
        List<SseWriter.Chunk> dropped = writer.close();
        if (dropped == null) {
            return;
        }
        String ended;
        Runnable forget;
        synchronized (this) {
            ended = endCause != null ? endCause : cause;
            forget = released;
        }
        engine.close(this, ended);
        if (forget != null) {
            forget.run();
        }
        SseWriter.dropped(dropped);
    }

    private void complete() {
        try {
            async.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // the container ended it first
        }
    }

    @Override
    public void onComplete(AsyncEvent event) {
        release("completed_by_container");
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        release("async_timeout");
        complete();
    }

    /**
     * The container found the request failed (usually: the client went away). Only releases the stream: the container
     * completes the request itself once its listeners return (Servlet 6.0, 2.3.3.3). Completing it here raced with
     * that: Undertow then ran the completion's request listeners on a worker thread while this thread was still
     * inside the error's, and Weld's request context, torn down by both at once, failed with a
     * ConcurrentModificationException (UT015005, WELD-000717, UT015021 in the log; SseIT's 200 leaving clients).
     */
    @Override
    public void onError(AsyncEvent event) {
        release("async_error");
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }
}
