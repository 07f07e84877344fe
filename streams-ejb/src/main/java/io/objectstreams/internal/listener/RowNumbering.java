package io.objectstreams.internal.listener;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Numbers committed rows one by one, writing each outbox row's {@code cursor}: how cursors were given before schema
 * V7, and how they still are while an instance of an earlier version may be running beside this one (its assigner
 * numbers the same way, in turn, under the same state row lock). A trigger copies every cursor written here into
 * {@code streams_cursors}, which the readers join. {@link CursorAssigner} decides when numbering switches to
 * {@link TickNumbering}; this class only claims and numbers.
 */
final class RowNumbering {

    /**
     * Locks the cursor state row, then claims the next batch in write order through the partial index of unassigned
     * rows (the scan stops after the batch whatever the backlog or the statistics say). Two statements sent in one
     * round trip: each takes its own snapshot, so the claim sees every row committed before the lock was granted.
     */
    private static final String LOCK_AND_CLAIM = TickNumbering.LOCK
            + "; SELECT id FROM streams_outbox WHERE cursor IS NULL"
            + " AND (SELECT last_snapshot IS NULL FROM streams_cursor_state WHERE id = 1)"
            + " ORDER BY wal_position, id LIMIT ";

    /**
     * Numbers the claimed rows in write order. They are named by primary key and nothing else, so the one plan is a
     * key lookup per row, whatever the backlog or the statistics. {@code width_bucket} finds each id's place in
     * the claimed ids sorted (a binary search over {@code bigint}s), and the array of ranks beside it gives that id's
     * place in write order ({@code int[]} subscripts are direct). The state row lock makes a {@code cursor IS NULL}
     * recheck unnecessary; the row count is checked instead.
     *
     * <p>Not a join: one statement that joined a claiming subquery to the table let the planner, whose statistics
     * from a quiet time promised one unassigned row, rescan the subquery for every unassigned row, so each batch
     * cost the batch times the backlog (docs/benchmarks.md, "Cursor assignment", has the figure). A join to an
     * array of ids may hash the whole table instead; numbering by {@code array_position} grows with the square of
     * the batch, and so does {@code width_bucket} over a {@code numeric} array (a variable-length element type, which
     * it walks from the start for every probe: 4.5 times slower per batch in the first form of this ordering); a
     * JDBC batch of single-row updates is markedly slower.
     */
    private static final String ASSIGN = "WITH numbered AS (UPDATE streams_outbox"
            + " SET cursor = ? + (?::int[])[width_bucket(id, ?::bigint[])] WHERE id = ANY(?) RETURNING 1),"
            + " advanced AS (UPDATE streams_cursor_state SET last_cursor = ? + (SELECT count(*) FROM numbered),"
            + " updated_at = now() WHERE id = 1 RETURNING last_cursor)"
            + " SELECT last_cursor, pg_notify(?, '') FROM advanced";

    private final int batchSize;
    private final String cursorChannel;

    RowNumbering(int batchSize, String cursorChannel) {
        this.batchSize = batchSize;
        this.cursorChannel = cursorChannel;
    }

    /**
     * Locks the cursor state row and claims the next batch ({@link #LOCK_AND_CLAIM}), adding the claimed ids to
     * {@code claimed} in write order; returns the high cursor the state row held, or -1 if rows are numbered by
     * tick (then nothing was claimed).
     */
    long claim(Connection connection, List<Long> claimed) throws SQLException {
        long last;
        try (Statement claim = connection.createStatement()) {
            claim.execute(LOCK_AND_CLAIM + batchSize);
            try (ResultSet rs = claim.getResultSet()) {
                if (!rs.next()) {
                    throw new SQLException("streams_cursor_state has no row;"
                            + " the schema migration did not complete");
                }
                last = rs.getBoolean(2) ? rs.getLong(1) : -1;
            }
            if (!claim.getMoreResults()) {
                throw new SQLException("Cursor assignment's claim returned no result");
            }
            try (ResultSet rs = claim.getResultSet()) {
                while (rs.next()) {
                    claimed.add(rs.getLong(1));
                }
            }
        }
        return last;
    }

    /**
     * Numbers the claimed rows in write order after {@code last} ({@link #ASSIGN}) and notifies the cursor channel,
     * which hears it at commit; returns the new high cursor, or {@code last} if the state row returned none.
     */
    long number(Connection connection, long last, Long[] ids) throws SQLException {
        Long[] sorted = new Long[ids.length];
        Integer[] ranks = new Integer[ids.length];
        sortWithRanks(ids, sorted, ranks);
        Array batch = connection.createArrayOf("bigint", sorted);
        Array places = connection.createArrayOf("integer", ranks);
        long high;
        try (PreparedStatement assign = connection.prepareStatement(ASSIGN)) {
            assign.setLong(1, last);
            assign.setArray(2, places);
            assign.setArray(3, batch);
            assign.setArray(4, batch);
            assign.setLong(5, last);
            assign.setString(6, cursorChannel);
            try (ResultSet rs = assign.executeQuery()) {
                high = rs.next() ? rs.getLong(1) : last;
            }
        } finally {
            batch.free();
            places.free();
        }
        return high;
    }

    /**
     * The claimed ids, {@code ids} in write order, as {@link #ASSIGN} takes them: into {@code sorted} and
     * {@code ranks}, arrays of their length.
     */
    private static void sortWithRanks(Long[] ids, Long[] sorted, Integer[] ranks) {
        // The ids sorted, and beside each its place in write order, counted from 1.
        Integer[] order = new Integer[ids.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(i -> ids[i]));
        for (int i = 0; i < order.length; i++) {
            sorted[i] = ids[order[i]];
            ranks[i] = order[i] + 1;
        }
    }
}
