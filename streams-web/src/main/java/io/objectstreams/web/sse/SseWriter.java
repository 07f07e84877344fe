package io.objectstreams.web.sse;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes one stream's bytes with the servlet's non-blocking output, and never blocks: chunks wait in a queue while
 * the container can take no more, and go out from {@link #onWritePossible()} when it can again. Each chunk's
 * {@code done} is called once: {@code null} when written, the failure, or {@link #CLOSED} when the stream closed
 * first. A chunk marked {@code closeAfter} ends the stream once it is written.
 *
 * <p>Its state is guarded by its own lock, which is held while the container writes; a container may call its
 * listeners from inside a write that fails, so the owner must not call this class while holding a lock of its own.
 * The writer calls its owner back ({@code ended}, {@code failed}, each chunk's {@code done}) without its lock.
 */
final class SseWriter implements WriteListener {

    /** What the {@code done} of a chunk that was never written is told. */
    static final IOException CLOSED = new IOException("The SSE connection is closed");

    /**
     * Bytes to write, who waits for them ({@code null}: nobody), whether the stream ends after them, and the
     * {@code id:} they carry (-1: none).
     */
    record Chunk(byte[] bytes, Consumer<Throwable> done, boolean closeAfter, long id) {
        Chunk(byte[] bytes, Consumer<Throwable> done, boolean closeAfter) {
            this(bytes, done, closeAfter, -1);
        }
    }

    /** Called when a {@code closeAfter} chunk was written: the owner releases and completes the stream. */
    private final Runnable ended;
    /** Called when a write failed: the owner releases and completes the stream. */
    private final Consumer<Throwable> failed;
    private final Deque<Chunk> pending = new ArrayDeque<>();
    private ServletOutputStream out;
    private boolean started;
    private boolean closed;
    /**
     * {@code isReady()} returned false: the container calls {@link #onWritePossible()} next. Until then it must not
     * be asked again (Grizzly refuses a second registration with an {@code IllegalStateException}).
     */
    private boolean awaitingWritable;
    /** When the container last said it could take no more ({@link #awaitingWritable} became true). */
    private long awaitingSince;
    /** Called once the last write handed to the container has completed; {@code null} if nobody waits for it. */
    private Consumer<Throwable> writing;
    private boolean closeAfterWriting;
    /** The highest {@code id:} queued: a heartbeat's id only moves the client's {@code Last-Event-ID} forward. */
    private long lastId = -1;

    SseWriter(Runnable ended, Consumer<Throwable> failed) {
        this.ended = ended;
        this.failed = failed;
    }

    /** Starts writing to {@code out}: {@code first}, then what was queued before the stream opened. */
    void start(ServletOutputStream out, byte[] first) {
        synchronized (this) {
            this.out = out;
            pending.addFirst(new Chunk(first, null, false));
            started = true;
        }
        out.setWriteListener(this);
        // Some containers (Payara's Grizzly) announce the first onWritePossible only once isReady() has been asked
        // and said no; asking here starts writing either way, and a first callback finds nothing left to do.
        drain();
    }

    /** Queues a chunk and writes what the container takes now; a closed stream fails it with {@link #CLOSED}. */
    void write(Chunk chunk) {
        boolean refused;
        synchronized (this) {
            refused = closed;
            if (!refused) {
                pending.add(chunk);
                lastId = Math.max(lastId, chunk.id());
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

    /**
     * Writes {@code bytes} only while nothing else is waiting or being written (a busy connection needs no
     * heartbeat; one would only queue behind the frame). Returns whether it did.
     */
    boolean writeIfIdle(byte[] bytes) {
        synchronized (this) {
            if (closed || awaitingWritable || !pending.isEmpty()) {
                return false;
            }
            pending.add(new Chunk(bytes, null, false));
        }
        drain();
        return true;
    }

    /**
     * As {@link #writeIfIdle}, for a heartbeat: {@code ping} with {@code id: through} in front when {@code through} is
     * newer than every id queued so far. Decided under this writer's lock, so no frame queued before it carries a newer
     * id, and every frame queued after it comes after it on the wire.
     *
     * @param through the cursor the engine has sent this stream everything through, or -1
     */
    boolean heartbeatIfIdle(long through, byte[] ping) {
        synchronized (this) {
            if (closed || awaitingWritable || !pending.isEmpty()) {
                return false;
            }
            byte[] bytes = ping;
            if (through > lastId) {
                lastId = through;
                bytes = ("id: " + through + "\n" + new String(ping, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8);
            }
            pending.add(new Chunk(bytes, null, false));
        }
        drain();
        return true;
    }

    synchronized boolean closed() {
        return closed;
    }

    /** Whether the container has taken nothing for longer than {@code nanos} at {@code now}. */
    synchronized boolean stalled(long now, long nanos) {
        return awaitingWritable && now - awaitingSince > nanos;
    }

    /** Stops writing, once: returns what was still queued, or {@code null} if it had stopped already. */
    synchronized List<Chunk> close() {
        if (closed) {
            return null;
        }
        closed = true;
        List<Chunk> dropped = new ArrayList<>(pending);
        pending.clear();
        return dropped;
    }

    /** Tells whoever waits for chunks that were never written that the stream closed. */
    static void dropped(List<Chunk> chunks) {
        for (Chunk chunk : chunks) {
            if (chunk.done() != null) {
                chunk.done().accept(CLOSED);
            }
        }
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
            ended.run();
        }
        if (completed != null) {
            completed.accept(closeNow ? CLOSED : null);
        }
        if (!closeNow) {
            drain();
        }
    }

    @Override
    public void onError(Throwable failure) {
        Consumer<Throwable> completed;
        synchronized (this) {
            completed = writing;
            writing = null;
        }
        fail(failure, completed);
    }

    /** Writes what is pending while the container can take it; never blocks. */
    private void drain() {
        while (true) {
            Chunk chunk;
            Exception failure = null;
            synchronized (this) {
                if (!started || closed || awaitingWritable || pending.isEmpty()) {
                    return;
                }
                try {
                    if (!out.isReady()) {
                        awaitWritable();
                        return;
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                chunk = failure == null ? pending.poll() : null;
                boolean ready = false;
                if (chunk != null) {
                    try {
                        ready = writeNow(chunk);
                    } catch (IOException | RuntimeException e) {
                        failure = e;
                    }
                }
                if (failure == null && !ready) {
                    // The container finishes this write in the background and calls onWritePossible.
                    awaitWritable();
                    writing = chunk.done();
                    closeAfterWriting = chunk.closeAfter();
                    return;
                }
            }
            if (failure != null) {
                fail(failure, chunk == null ? null : chunk.done());
                return;
            }
            if (written(chunk)) {
                return;
            }
        }
    }

    /** Writes {@code chunk}, flushing it while the container takes it at once; whether it can take more now. */
    private boolean writeNow(Chunk chunk) throws IOException {
        // isReady() is asked again only while it answers true: each false registers for a callback.
        out.write(chunk.bytes());
        boolean ready = out.isReady();
        if (ready) {
            out.flush();
            ready = out.isReady();
        }
        return ready;
    }

    /** Waits for the container's onWritePossible, from now. */
    private void awaitWritable() {
        awaitingWritable = true;
        awaitingSince = System.nanoTime();
    }

    /** Tells a written chunk's owner, and ends the stream after a closing chunk; whether draining stops there. */
    private boolean written(Chunk chunk) {
        if (chunk.closeAfter()) {
            ended.run();
        }
        if (chunk.done() != null) {
            chunk.done().accept(null);
        }
        return chunk.closeAfter();
    }

    private void fail(Throwable failure, Consumer<Throwable> done) {
        failed.accept(failure);
        if (done != null) {
            done.accept(failure);
        }
    }
}
