package io.objectstreams.web.subscription;

import io.objectstreams.feed.ConnectionSettings;
import io.objectstreams.feed.ProcessLimits;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.Viewer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * Counts this instance's connections, in all, per authenticated principal and anonymous together, and refuses one
 * past {@code streams.connections.max}, {@code streams.connections.max-per-principal} or
 * {@code streams.connections.max-anonymous} (G15); and one that the process could not hold: past the connections its
 * open-file limit leaves room for, or while its heap is full after a collection. Refusing before the files or the heap
 * run out keeps the server answering its health checks and the connections it has. A refused connection
 * holds nothing; an entry per principal exists only while the principal is connected, so nothing here grows with
 * the number of users.
 */
final class Admission {

    private static final Logger LOG = Logger.getLogger(Admission.class.getName());

    private final int maxConnections;
    private final int maxPerPrincipal;
    private final int maxAnonymous;
    /** The connections the open-file limit leaves room for; the heap's state; and what a refusal tells the client. */
    private final FileBudget files;
    private final String filesReason;
    private final BooleanSupplier heapFull;
    private final String heapFullReason;
    private final RateLimitedLog refusals = new RateLimitedLog(Duration.ofMinutes(1));
    private final AtomicInteger anonymous = new AtomicInteger();
    /** Connections admitted and not yet released; the registry's sessions may briefly lag behind it. */
    private final AtomicInteger connections = new AtomicInteger();
    private final Map<String, Integer> byPrincipal = new ConcurrentHashMap<>();

    Admission(int maxConnections, int maxPerPrincipal, int maxAnonymous) {
        this(maxConnections, maxPerPrincipal, maxAnonymous, new FileBudget(-1, 0, () -> -1, System::nanoTime), "",
                () -> false, "");
    }

    Admission(int maxConnections, int maxPerPrincipal, int maxAnonymous, FileBudget files, String filesReason,
              BooleanSupplier heapFull, String heapFullReason) {
        this.maxConnections = maxConnections;
        this.maxPerPrincipal = maxPerPrincipal;
        this.maxAnonymous = maxAnonymous;
        this.files = files;
        this.filesReason = filesReason;
        this.heapFull = heapFull;
        this.heapFullReason = heapFullReason;
    }

    /**
     * The admission the settings ask for, bounded by what this process can hold. What a refusal tells the client names
     * the setting, never the server's figures (its headroom is not the client's business); the log has them.
     */
    static Admission of(ConnectionSettings settings, ProcessLimits process) {
        HeapGauge heap = new HeapGauge(settings.maxHeapPercent());
        return new Admission(settings.max(), settings.maxPerPrincipal(), settings.maxAnonymous(),
                new FileBudget(process.maxFiles(), settings.reservedFiles(), ProcessLimits::openFilesNow,
                        System::nanoTime),
                "This server holds all the connections its open-file limit leaves room for ("
                        + ConnectionSettings.RESERVED_FILES.key() + "); try again later", heap,
                "This server's heap is more than " + heap.percent() + "% full after garbage collection ("
                        + ConnectionSettings.MAX_HEAP_PERCENT.key() + "); try again later");
    }

    /** Takes a slot for a new connection of {@code viewer}, or refuses it ({@code connection_limit_exceeded}). */
    void admit(Viewer viewer) throws ProtocolError {
        int admitted = connections.incrementAndGet();
        if (admitted > maxConnections) {
            connections.decrementAndGet();
            throw ProtocolError.limit(ErrorCode.CONNECTION_LIMIT_EXCEEDED, ConnectionSettings.MAX.key(),
                    "This server holds its maximum of " + maxConnections + " connections ("
                    + ConnectionSettings.MAX.key() + "); try again later");
        }
        if (admitted > files.capacity(admitted - 1)) {
            connections.decrementAndGet();
            refusals.log(LOG, "Object Streams refuses connections past " + (admitted - 1) + ": " + files.figures()
                    + " (" + ConnectionSettings.RESERVED_FILES.key() + "; docs/operations.md)", null);
            throw ProtocolError.limit(ErrorCode.CONNECTION_LIMIT_EXCEEDED, ConnectionSettings.RESERVED_FILES.key(),
                    filesReason);
        }
        if (heapFull.getAsBoolean()) {
            connections.decrementAndGet();
            refusals.log(LOG, "Object Streams refuses new connections while " + (admitted - 1) + " are held: "
                    + heapFullReason, null);
            throw ProtocolError.limit(ErrorCode.CONNECTION_LIMIT_EXCEEDED, ConnectionSettings.MAX_HEAP_PERCENT.key(),
                    heapFullReason);
        }
        if (viewer.isAnonymous()) {
            if (anonymous.incrementAndGet() > maxAnonymous) {
                anonymous.decrementAndGet();
                connections.decrementAndGet();
                throw ProtocolError.limit(ErrorCode.CONNECTION_LIMIT_EXCEEDED, ConnectionSettings.MAX_ANONYMOUS.key(),
                        "This server holds its maximum of " + maxAnonymous + " anonymous connections ("
                        + ConnectionSettings.MAX_ANONYMOUS.key() + "); authenticate, or try again later");
            }
            return;
        }
        boolean[] full = {false};
        byPrincipal.compute(viewer.name(), (name, held) -> {
            int count = held == null ? 0 : held;
            if (count >= maxPerPrincipal) {
                full[0] = true;
                return held;
            }
            return count + 1;
        });
        if (full[0]) {
            connections.decrementAndGet();
            throw ProtocolError.limit(ErrorCode.CONNECTION_LIMIT_EXCEEDED, ConnectionSettings.MAX_PER_PRINCIPAL.key(),
                    "You already hold " + maxPerPrincipal + " connections to this server ("
                    + ConnectionSettings.MAX_PER_PRINCIPAL.key() + "); close one first");
        }
    }

    /** Gives back the slot of a connection of {@code viewer} that ended. */
    void release(Viewer viewer) {
        connections.decrementAndGet();
        if (viewer.isAnonymous()) {
            anonymous.decrementAndGet();
        } else {
            byPrincipal.computeIfPresent(viewer.name(), (name, held) -> held <= 1 ? null : held - 1);
        }
    }
}
