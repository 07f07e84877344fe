package io.objectstreams.internal.retention;

import io.objectstreams.feed.PruneOutcome;
import io.objectstreams.internal.listener.ListenerConnection;
import io.objectstreams.internal.listener.OutboxReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Deletes the oldest assigned outbox rows that retention lets go, in bounded batches (G11).
 *
 * <p>What may go is always a prefix of the cursor order, so "everything at or below the watermark is gone" stays
 * exact: the target is the highest cursor below which every assigned row is past the age bound (insert time),
 * or outside the newest {@code maxRows} rows; with both bounds, the one that deletes more. Never a row without a
 * cursor (it has none to compare), never the newest assigned row.
 *
 * <p>Each batch is one short transaction that takes a transaction-level advisory lock (so one instance deletes
 * at a time; a run that finds the lock taken stops), re-reads the cursor state, deletes one range of cursors
 * through the unique cursor index, and raises the watermark. The state row is written last, so the assigner,
 * which locks it for each of its own batches, waits at most for one commit. Cursors are handed out in
 * increasing order, so a row assigned while pruning runs always lies above the target.
 */
public final class OutboxPruner {

    /** The high half of every pruning lock key; the low half identifies the outbox table, as for the assigner. */
    private static final long PRUNER_LOCK_TAG = 0x0b5e_9e0eL;

    /** The lowest cursor above the watermark whose row is still younger than the age bound. */
    private static final String FIRST_YOUNG = "SELECT c.cursor FROM streams_cursors c JOIN streams_outbox o"
            + " ON o.id = c.outbox_id WHERE c.cursor > ? AND o.created_at >= now() - make_interval(secs => ?)"
            + " ORDER BY c.cursor LIMIT 1";

    private static final String COUNT = "SELECT count(*) FROM streams_cursors c JOIN streams_outbox o"
            + " ON o.id = c.outbox_id WHERE c.cursor > ? AND c.cursor <= ?";

    /**
     * A range of cursors, and the outbox rows they number (schema V7: cursors live in streams_cursors). The range
     * starts at the lowest cursor left, not at the watermark: a pruner of an earlier version, before the switch to
     * ticks, deleted outbox rows by their cursor column and left their streams_cursors rows behind; they go with
     * the first batch. Through the cursors' primary key, so a batch reads only what it deletes.
     */
    private static final String DELETE = "WITH gone AS (DELETE FROM streams_cursors WHERE cursor <= ?"
            + " RETURNING outbox_id) DELETE FROM streams_outbox WHERE id IN (SELECT outbox_id FROM gone)";

    /** Says in the statement that this version writes the cursor state (the V7 guard lets no earlier one). */
    private static final String THIS_VERSION = " AND set_config('streams.schema', '7', true) = '7'";

    private static final String ADVANCE = "UPDATE streams_cursor_state SET pruned_through = ?, pruned_at = now()"
            + " WHERE id = 1 AND pruned_through = ?" + THIS_VERSION;

    private static final String STAMP = "UPDATE streams_cursor_state SET pruned_at = now() WHERE id = 1"
            + THIS_VERSION;

    private OutboxPruner() {
    }

    /** The pruning lock's key for one outbox table: every instance of one application computes the same. */
    static long pruneLock(String qualifiedOutboxTable) {
        return PRUNER_LOCK_TAG << 32 | (qualifiedOutboxTable.hashCode() & 0xffff_ffffL);
    }

    /**
     * The highest cursor a run may delete through: at least the watermark (nothing to do), at most the cursor
     * below the newest. {@code maxAge} may be {@code null} and {@code maxRows} 0 for "no such bound".
     */
    static long target(Connection connection, OutboxReader.CursorState state, Duration maxAge, long maxRows)
            throws SQLException {
        long newestDeletable = state.lastCursor() - 1;
        long target = state.prunedThrough();
        if (maxRows > 0) {
            target = Math.max(target, state.lastCursor() - maxRows);
        }
        if (maxAge != null) {
            long firstYoung;
            try (PreparedStatement read = connection.prepareStatement(FIRST_YOUNG)) {
                read.setLong(1, state.prunedThrough());
                read.setDouble(2, maxAge.toMillis() / 1000.0);
                try (ResultSet rs = read.executeQuery()) {
                    firstYoung = rs.next() ? rs.getLong(1) : Long.MAX_VALUE;
                }
            }
            target = Math.max(target, Math.min(firstYoung - 1, newestDeletable));
        }
        return Math.max(state.prunedThrough(), Math.min(target, newestDeletable));
    }

    /**
     * One run on {@code connection} (its auto-commit is restored): a dry run counts what a real run would delete
     * now; a real one deletes it batch by batch while {@code keepGoing} holds.
     */
    public static PruneOutcome run(Connection connection, Duration maxAge, long maxRows, int batchSize, boolean dryRun,
                            BooleanSupplier keepGoing) throws SQLException {
        long started = System.nanoTime();
        OutboxReader.CursorState start = OutboxReader.cursorState(connection);
        long target = target(connection, start, maxAge, maxRows);
        if (dryRun) {
            return new PruneOutcome(true, start.lastCursor(), start.prunedThrough(), target,
                    deletable(connection, start, target), 0, since(started), null);
        }
        long lock = pruneLock(ListenerConnection.outboxTable(connection));
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        Progress progress = new Progress(start.prunedThrough());
        try {
            while (true) {
                if (!keepGoing.getAsBoolean()) {
                    progress.stoppedEarly = "the application is stopping";
                    break;
                }
                if (!pruneBatch(connection, lock, target, batchSize, progress)) {
                    break;
                }
            }
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        return new PruneOutcome(false, start.lastCursor(), start.prunedThrough(), progress.watermark,
                progress.deleted, progress.batches, since(started), progress.stoppedEarly);
    }

    /** How many rows a run would delete now: those above the watermark up to {@code target}. */
    private static long deletable(Connection connection, OutboxReader.CursorState start, long target)
            throws SQLException {
        long rows = 0;
        if (target > start.prunedThrough()) {
            try (PreparedStatement count = connection.prepareStatement(COUNT)) {
                count.setLong(1, start.prunedThrough());
                count.setLong(2, target);
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    rows = rs.getLong(1);
                }
            }
        }
        return rows;
    }

    /**
     * One batch, in its own transaction under the pruning lock: the next range of cursors deleted and the watermark
     * raised past it, with {@code progress} told. Returns whether another batch may follow; when none may, the
     * transaction is committed or rolled back and {@code progress} says why the run stopped early, if it did.
     */
    private static boolean pruneBatch(Connection connection, long lock, long target, int batchSize,
                                      Progress progress) throws SQLException {
        if (!tryLock(connection, lock)) {
            connection.rollback();
            progress.stoppedEarly = "another instance is pruning";
            return false;
        }
        // Re-read under the lock: another instance may have pruned since this run looked.
        OutboxReader.CursorState now = OutboxReader.cursorState(connection);
        progress.watermark = now.prunedThrough();
        long upto = Math.min(Math.min(now.prunedThrough() + batchSize, target), now.lastCursor() - 1);
        if (upto <= now.prunedThrough()) {
            try (PreparedStatement stamp = connection.prepareStatement(STAMP)) {
                stamp.executeUpdate();
            }
            connection.commit();
            return false;
        }
        int rows;
        try (PreparedStatement delete = connection.prepareStatement(DELETE)) {
            delete.setLong(1, upto);
            rows = delete.executeUpdate();
        }
        try (PreparedStatement advance = connection.prepareStatement(ADVANCE)) {
            advance.setLong(1, upto);
            advance.setLong(2, now.prunedThrough());
            if (advance.executeUpdate() != 1) {
                // Only a pruner moves the watermark, and the lock excludes the others: not expected, never
                // guessed.
                connection.rollback();
                progress.stoppedEarly = "the watermark moved under this run";
                return false;
            }
        }
        connection.commit();
        progress.deleted += rows;
        progress.batches++;
        progress.watermark = upto;
        return true;
    }

    private static boolean tryLock(Connection connection, long key) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            lock.setLong(1, key);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static Duration since(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /** What a real run has done so far: the watermark it left, its batches and their rows, why it stopped early. */
    private static final class Progress {
        long watermark;
        long deleted;
        int batches;
        String stoppedEarly;

        Progress(long watermark) {
            this.watermark = watermark;
        }
    }
}
