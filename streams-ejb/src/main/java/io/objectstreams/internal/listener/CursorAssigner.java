package io.objectstreams.internal.listener;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Gives cursors to committed, unassigned outbox rows, in id order, one batch per transaction (G5).
 *
 * <p>Only committed rows are visible to the assigning statement, so a transaction that commits late simply
 * gets later cursors: a client that has seen cursor N can never be owed a row with a cursor below N. The
 * cursor state row is locked first, in its own statement, so even a second assigner (which the advisory
 * lock already prevents) would serialise behind the first and continue from its high cursor, never reuse it.
 */
public final class CursorAssigner {

    private static final String LOCK_STATE = "SELECT last_cursor FROM streams_cursor_state WHERE id = 1 FOR UPDATE";

    private static final String ASSIGN = """
            WITH batch AS (
                SELECT id, row_number() OVER (ORDER BY id) AS n
                  FROM streams_outbox WHERE cursor IS NULL ORDER BY id LIMIT ?),
            assigned AS (
                UPDATE streams_outbox o SET cursor = ? + batch.n
                  FROM batch WHERE o.id = batch.id AND o.cursor IS NULL
                RETURNING o.cursor)
            SELECT count(*), coalesce(max(cursor), 0) FROM assigned""";

    private static final String ADVANCE = "UPDATE streams_cursor_state SET last_cursor = ?, updated_at = now() WHERE id = 1";

    private final int batchSize;
    private final String cursorChannel;

    public CursorAssigner(int batchSize, String cursorChannel) {
        this.batchSize = batchSize;
        this.cursorChannel = cursorChannel;
    }

    /** The highest cursor assigned so far (0 before the first). */
    public static long lastCursor(Connection connection) throws SQLException {
        return OutboxReader.cursorState(connection).lastCursor();
    }

    /**
     * Assigns cursors until no committed row is left without one; every batch commits on its own and
     * announces the new high cursor on the cursor channel. Returns the number of rows assigned.
     */
    public long assignAll(Connection connection) throws SQLException {
        long total = 0;
        int assigned;
        do {
            assigned = assignBatch(connection);
            total += assigned;
        } while (assigned == batchSize);
        return total;
    }

    /** Assigns one batch in one transaction; returns how many rows got a cursor. */
    public int assignBatch(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try {
            long last;
            try (Statement lock = connection.createStatement(); ResultSet rs = lock.executeQuery(LOCK_STATE)) {
                if (!rs.next()) {
                    throw new SQLException("streams_cursor_state has no row; the schema migration did not complete");
                }
                last = rs.getLong(1);
            }
            int count;
            long high;
            try (PreparedStatement assign = connection.prepareStatement(ASSIGN)) {
                assign.setInt(1, batchSize);
                assign.setLong(2, last);
                try (ResultSet rs = assign.executeQuery()) {
                    rs.next();
                    count = rs.getInt(1);
                    high = rs.getLong(2);
                }
            }
            if (count == 0) {
                connection.rollback();
                return 0;
            }
            try (PreparedStatement advance = connection.prepareStatement(ADVANCE);
                 Statement announce = connection.createStatement()) {
                advance.setLong(1, high);
                advance.executeUpdate();
                // Transactional: followers hear it only once the cursors are visible to them.
                announce.execute("NOTIFY " + cursorChannel);
            }
            connection.commit();
            return count;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }
}
