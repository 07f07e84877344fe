package io.objectstreams.web.subscription;

import java.util.function.LongSupplier;

/**
 * The connections the process's open-file limit leaves room for: the limit, less the files the server holds for
 * anything but the connections already admitted, less a reserve. Measured again every few seconds, so that it follows
 * the server's own files (a pool that grew, a deployment, sockets accepted during a storm before the first connection
 * was admitted) rather than whatever was open when the first connection arrived.
 */
final class FileBudget {

    private static final long REMEASURE_NANOS = 5_000_000_000L;

    private final long maxFiles;
    private final int reserved;
    private final LongSupplier openFiles;
    private final LongSupplier nanoClock;
    private long measuredAt;
    private boolean measured;
    private int capacity = Integer.MAX_VALUE;
    private long serverFiles = -1;

    /** {@code maxFiles} or {@code openFiles} below 0: unknown, and no bound. */
    FileBudget(long maxFiles, int reserved, LongSupplier openFiles, LongSupplier nanoClock) {
        this.maxFiles = maxFiles;
        this.reserved = reserved;
        this.openFiles = openFiles;
        this.nanoClock = nanoClock;
    }

    /** How many connections may be held, with {@code admitted} held now; {@link Integer#MAX_VALUE} when unknown. */
    synchronized int capacity(int admitted) {
        if (maxFiles < 0) {
            return Integer.MAX_VALUE;
        }
        long now = nanoClock.getAsLong();
        if (!measured || now - measuredAt >= REMEASURE_NANOS) {
            long open = openFiles.getAsLong();
            serverFiles = open < 0 ? -1 : Math.max(0, open - admitted);
            capacity = open < 0 ? Integer.MAX_VALUE
                    : (int) Math.max(0, Math.min(Integer.MAX_VALUE, maxFiles - serverFiles - reserved));
            measuredAt = now;
            measured = true;
        }
        return capacity;
    }

    /** For the server's log: the figures behind the last capacity. */
    synchronized String figures() {
        return "open-file limit " + maxFiles + ", " + serverFiles
                + " files held by the server besides its connections, " + reserved + " reserved";
    }
}
