package io.objectstreams.internal.listener;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Gives cursors to committed, unassigned outbox rows, in the order they were written, one batch per transaction
 * (G5).
 *
 * <p>Only committed rows are visible to the statement that claims a batch, so a transaction that commits late
 * simply gets later cursors: a client that has seen cursor N can never be owed a row with a cursor below N. Rows
 * committed by the time of one claim are numbered by {@code wal_position}, where the write-ahead log stood when
 * each was written, then by id. A transaction that had to wait for another's row lock wrote after that one
 * committed, so its rows come after all of the other's; by id alone a capture trigger's rows, whose ids follow the
 * transaction's start, could come first and show a client a delete before the create it undoes. The
 * cursor state row is locked first, in its own statement, so even a second assigner (which the advisory
 * lock already prevents) would serialise behind the first and continue from its high cursor, never reuse it.
 *
 * <p>Two ways of numbering (schema V7, docs/design/assignment.md). Rows one by one, writing each row's
 * {@code cursor} (a trigger copies it into {@code streams_cursors}), while an instance of an earlier version may
 * still be running; then, once none is, by tick ({@link TickNumbering}): one narrow {@code streams_cursors} row per
 * outbox row, found by transaction visibility, with no outbox row rewritten. The switch happens once, in one batch.
 */
public final class CursorAssigner {

    private static final Logger LOG = Logger.getLogger(CursorAssigner.class.getName());

    private final int batchSize;
    private final RowNumbering rows;
    private final TickNumbering ticks;
    private final NumberingSwitch numberingSwitch;
    private boolean dropClaimIndex;
    private long highCursor = -1;
    private boolean byTick;

    /** An assigner that switches to ticks as soon as no instance of an earlier version is connected. */
    public CursorAssigner(int batchSize, String cursorChannel) {
        this(batchSize, cursorChannel, Duration.ZERO);
    }

    /**
     * An assigner that switches to ticks once no instance of an earlier version has been connected for
     * {@code switchHold} ({@link NumberingSwitch}).
     */
    public CursorAssigner(int batchSize, String cursorChannel, Duration switchHold) {
        this.batchSize = batchSize;
        this.rows = new RowNumbering(batchSize, cursorChannel);
        this.ticks = new TickNumbering(cursorChannel);
        this.numberingSwitch = new NumberingSwitch(switchHold);
    }

    /**
     * Makes the next batch look for every committed row that has no cursor, not only those of the transactions the
     * last tick did not see: once each time this session takes the assigner role (docs/design/assignment.md).
     */
    public void reconcileNext() {
        ticks.reconcileNext();
        dropClaimIndex = true;
    }

    /** The highest cursor assigned so far (0 before the first). */
    public static long lastCursor(Connection connection) throws SQLException {
        return OutboxReader.cursorState(connection).lastCursor();
    }

    /**
     * Numbers every row committed so far: one tick, or, one by one, batches until one comes back short. Every
     * transaction commits on its own and announces the new high cursor on the cursor channel. Returns the number of
     * rows numbered.
     */
    public long assignAll(Connection connection) throws SQLException {
        highCursor = -1;
        long total = 0;
        int assigned;
        boolean again;
        do {
            boolean ticking = byTick;
            assigned = ticking ? tick(connection) : assignBatch(connection);
            total += assigned;
            // One tick numbers everything committed by its snapshot; what committed since woke the listener again.
            again = !ticking && !byTick && assigned >= batchSize;
        } while (again);
        return total;
    }

    /**
     * The high cursor the last {@link #assignAll} committed, or -1 if it assigned nothing: while this session holds
     * the cursor state lock for each batch, nobody else moves the high cursor.
     */
    public long highCursor() {
        return highCursor;
    }

    /**
     * Numbers by tick ({@link TickNumbering}) in one transaction; returns how many rows got a cursor. Falls back to
     * {@link #assignBatch} if the cursor state says rows are numbered one by one (a database restored from before
     * the switch).
     */
    private int tick(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try {
            numberingSwitch.watch(connection);
            TickNumbering.Outcome outcome = ticks.number(connection);
            if (outcome == null) {
                connection.rollback();
                byTick = false;
                return assignBatch(connection);
            }
            int numbered = commit(connection, outcome);
            if (dropClaimIndex) {
                // Taken over after a holder that could not drop it (not the owner, the lock busy): try again.
                dropClaimIndex = false;
                TickNumbering.dropRowClaimIndex(connection);
            }
            return numbered;
        } catch (SQLException | RuntimeException e) {
            rollback(connection, e);
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private int commit(Connection connection, TickNumbering.Outcome outcome) throws SQLException {
        if (outcome.numbered() == 0 && !outcome.recorded()) {
            connection.rollback();
            return 0;
        }
        connection.commit();
        if (outcome.numbered() > 0) {
            highCursor = outcome.high();
        }
        return outcome.numbered();
    }

    private static void rollback(Connection connection, Exception e) {
        try {
            connection.rollback();
        } catch (SQLException suppressed) {
            e.addSuppressed(suppressed);
        }
    }

    /**
     * Assigns one batch one row at a time, in one transaction of three round trips, or switches to ticks if no
     * instance of an earlier version is connected; returns how many rows got a cursor.
     */
    public int assignBatch(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try {
            List<Long> claimed = new ArrayList<>(batchSize);
            long last = rows.claim(connection, claimed);
            if (last < 0 || numberingSwitch.maySwitch(connection)) {
                // Switched already (another instance did), or this batch switches: numbering goes by tick.
                byTick = true;
                TickNumbering.Outcome outcome = last < 0 ? ticks.number(connection) : ticks.switchToTicks(connection);
                int numbered = commit(connection, outcome);
                if (last >= 0) {
                    LOG.info(() -> "Object Streams numbers rows by tick from cursor " + (last + 1) + " on (schema V7)");
                    dropClaimIndex = false;
                    TickNumbering.dropRowClaimIndex(connection);
                }
                return numbered;
            }
            if (claimed.isEmpty()) {
                connection.rollback();
                return 0;
            }
            Long[] ids = claimed.toArray(Long[]::new);
            long high = rows.number(connection, last, ids);
            if (high != last + ids.length) {
                // Only an assigner writes cursors, and the state row lock excludes the others: never guessed past.
                throw new SQLException("Cursor assignment numbered " + (high - last) + " of the " + ids.length
                        + " rows it claimed; another transaction changed the outbox under the cursor state lock");
            }
            connection.commit();
            highCursor = high;
            return ids.length;
        } catch (SQLException | RuntimeException e) {
            rollback(connection, e);
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
