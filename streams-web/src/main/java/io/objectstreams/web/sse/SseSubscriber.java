package io.objectstreams.web.sse;

import io.objectstreams.web.subscription.Subscriber;
import io.objectstreams.web.subscription.ConnectionRegistry;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One Server-Sent Events connection as the engine sees it: each protocol message becomes one frame
 * ({@code id:} its cursor, {@code event:} its type, {@code data:} the same JSON the WebSocket sends), written with
 * the servlet's non-blocking output, so a client that stops reading holds no thread: its frames wait in the
 * engine's byte-bounded queue, which tells it to resync ({@code slow_consumer}) and this connection then closes.
 *
 * <p>A message the engine sends before the stream has opened (the subscription's {@code subscribed}, while the
 * servlet still decides) is held and written right after the preamble. Every way the connection ends (client
 * gone, write failed, lifetime reached, engine closing it) releases it from the engine, once.
 */
final class SseSubscriber implements Subscriber, WriteListener, AsyncListener {

    private static final Logger LOG = Logger.getLogger(SseSubscriber.class.getName());
    private static final AtomicLong IDS = new AtomicLong();
    private static final byte[] PING = ": ping\n\n".getBytes(StandardCharsets.UTF_8);
    /** Written one tick after a heartbeat to look at the connection again: nothing reaches the client. */
    private static final byte[] PROBE = new byte[0];
    private static final IOException CLOSED = new IOException("The SSE connection is closed");

    private record Chunk(byte[] bytes, Consumer<Throwable> done, boolean closeAfter) {
    }

    private final String id = "sse:" + IDS.incrementAndGet();
    private final ConnectionRegistry engine;
    private final Deque<Chunk> pending = new ArrayDeque<>();
    private AsyncContext async;
    private ServletOutputStream out;
    private boolean started;
    private boolean closed;
    /**
     * {@code isReady()} returned false: the container calls {@link #onWritePossible()} next. Until then it must not
     * be asked again (Grizzly refuses a second registration with an {@code IllegalStateException}).
     */
    private boolean awaitingWritable;
    /** Called once the last write handed to the container has completed; {@code null} if nobody waits for it. */
    private Consumer<Throwable> writing;
    private boolean closeAfterWriting;
    /** Why the server is ending this stream, once it decided to; counted when the stream is released. */
    private String endCause;
    private long pingEvery;
    private long nextPing;
    private long endsAt;
    /** The lifetime's end was reached and the closing comment queued. */
    private boolean ending;
    /** Forgets this stream in the servlet's clock; run once, when the stream is released. */
    private Runnable released;
    /** When the container last said it could take no more ({@link #awaitingWritable} became true). */
    private long awaitingSince;
    /** A heartbeat was handed to the container since the last tick: the next tick writes {@link #PROBE}. */
    private boolean probeOwed;

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
     * held message. Heartbeats and the lifetime's end come from {@link #tick}, which the servlet's one clock calls
     * for every open stream: a timer task per stream would stay queued in the container's scheduler after the
     * stream ended (cancelling does not remove it), holding the stream until its lifetime had passed.
     */
    void start(AsyncContext context, String preamble, Duration heartbeatEvery, Duration lifetime, Runnable onRelease)
            throws IOException {
        synchronized (this) {
            released = onRelease;
            async = context;
            async.setTimeout(0);
            async.addListener(this);
            out = async.getResponse().getOutputStream();
            pending.addFirst(new Chunk(preamble.getBytes(StandardCharsets.UTF_8), null, false));
            started = true;
            long now = System.nanoTime();
            pingEvery = heartbeatEvery.toNanos();
            nextPing = now + pingEvery;
            endsAt = now + lifetime.toNanos();
        }
        out.setWriteListener(this);
        // Some containers (Payara's Grizzly) announce the first onWritePossible only once isReady() has been asked
        // and said no; asking here starts writing either way, and a first callback finds nothing left to do.
        drain();
    }

    /**
     * Pings when a heartbeat is due and ends the stream when its lifetime has passed. Returns false once the
     * stream is released, so the clock forgets it.
     */
    boolean tick(long now) {
        boolean stalled;
        boolean end;
        boolean ping;
        boolean probe;
        synchronized (this) {
            if (closed) {
                return false;
            }
            // Nothing written for two heartbeats: the client stopped reading, or left without the container
            // noticing (Payara sometimes never reports a write to a closed connection). Let it go; a client that
            // is still there reconnects with its last cursor and is replayed what it missed.
            stalled = awaitingWritable && now - awaitingSince > 2 * pingEvery;
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
            writeIdle(PING);
        } else if (probe) {
            writeIdle(PROBE);
        }
        return true;
    }

    @Override
    public void send(String type, long cursor, String text, Consumer<Throwable> done) {
        StringBuilder frame = new StringBuilder(text.length() + 48);
        if (cursor >= 0) {
            frame.append("id: ").append(cursor).append('\n');
        }
        frame.append("event: ").append(type).append('\n').append("data: ").append(text).append("\n\n");
        // A client too slow for its queue is told to resync, then let go: it reconnects from that cursor.
        boolean closeAfter = type.equals("resync_required") && text.contains("\"reason\":\"slow_consumer\"");
        if (closeAfter) {
            endBecause("slow_consumer");
        }
        enqueue(new Chunk(frame.toString().getBytes(StandardCharsets.UTF_8), done, closeAfter));
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
     * Writes a heartbeat, or, one tick after it, {@link #PROBE}: nothing, to learn whether the heartbeat found the
     * connection gone. A client that left still takes its first heartbeat (the socket accepts it); the second one's
     * write fails. Undertow reports that failure to the write listener. Payara's Grizzly only closes the
     * connection, and the write after it throws, so without the probe the stream would be held until its third
     * heartbeat. An empty write costs nothing on the wire.
     */
    private void writeIdle(byte[] bytes) {
        synchronized (this) {
            // A frame still being written shows the connection is busy; a ping would only queue behind it.
            if (closed || awaitingWritable || !pending.isEmpty()) {
                return;
            }
            pending.add(new Chunk(bytes, null, false));
            probeOwed = bytes == PING;
        }
        drain();
    }

    /** Writes a last comment and completes the response. */
    private void finish(String comment, String cause) {
        endBecause(cause);
        enqueue(new Chunk(comment.getBytes(StandardCharsets.UTF_8), null, true));
    }

    private void enqueue(Chunk chunk) {
        boolean refused;
        synchronized (this) {
            refused = closed;
            if (!refused) {
                pending.add(chunk);
            }
        }
        if (refused) {
            if (chunk.done() != null) {
                chunk.done().accept(CLOSED);
            }
            return;
        }
        drain();
    }

    @Override
    public void onWritePossible() {
        Consumer<Throwable> completed;
        boolean closeNow;
        synchronized (this) {
            completed = writing;
            closeNow = closeAfterWriting;
            writing = null;
            closeAfterWriting = false;
            awaitingWritable = false;
        }
        if (closeNow) {
            release(null);
            complete();
        }
        if (completed != null) {
            completed.accept(closeNow ? CLOSED : null);
        }
        if (!closeNow) {
            drain();
        }
    }

    /** Writes what is pending while the container can take it; never blocks. */
    private void drain() {
        while (true) {
            Chunk chunk;
            boolean ready;
            Exception failure = null;
            synchronized (this) {
                if (!started || closed || awaitingWritable || pending.isEmpty()) {
                    return;
                }
                try {
                    if (!out.isReady()) {
                        awaitingWritable = true;
                        awaitingSince = System.nanoTime();
                        return;
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                chunk = failure == null ? pending.poll() : null;
                ready = false;
                if (chunk != null) {
                    try {
                        // isReady() is asked again only while it answers true: each false registers for a callback.
                        out.write(chunk.bytes());
                        ready = out.isReady();
                        if (ready) {
                            out.flush();
                            ready = out.isReady();
                        }
                    } catch (IOException | RuntimeException e) {
                        failure = e;
                    }
                }
                if (failure == null && !ready) {
                    // The container finishes this write in the background and calls onWritePossible.
                    awaitingWritable = true;
                    awaitingSince = System.nanoTime();
                    writing = chunk.done();
                    closeAfterWriting = chunk.closeAfter();
                    return;
                }
            }
            if (failure != null) {
                failed(failure, chunk);
                return;
            }
            if (chunk.closeAfter()) {
                release(null);
                complete();
            }
            if (chunk.done() != null) {
                chunk.done().accept(null);
            }
            if (chunk.closeAfter()) {
                return;
            }
        }
    }

    private void failed(Throwable failure, Chunk chunk) {
        LOG.log(Level.FINE, "SSE connection " + id + " failed", failure);
        release("write_failed");
        complete();
        if (chunk != null && chunk.done() != null) {
            chunk.done().accept(failure);
        }
    }

    @Override
    public void onError(Throwable failure) {
        Consumer<Throwable> completed;
        synchronized (this) {
            completed = writing;
            writing = null;
        }
        failed(failure, completed == null ? null : new Chunk(null, completed, false));
    }

    /** Forgets the connection in the engine, and everything queued for it; once. */
    private void release(String cause) {
        Deque<Chunk> dropped;
        String ended;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            ended = endCause != null ? endCause : cause;
            dropped = new ArrayDeque<>(pending);
            pending.clear();
        }
        engine.close(this, ended);
        Runnable forget;
        synchronized (this) {
            forget = released;
        }
        if (forget != null) {
            forget.run();
        }
        for (Chunk chunk : dropped) {
            if (chunk.done() != null) {
                chunk.done().accept(CLOSED);
            }
        }
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
