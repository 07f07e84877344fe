package io.objectstreams.internal.listener;

/**
 * The committed outbox rows that have no cursor yet, as SQL (schema V7): the backlog the readiness check measures,
 * and the rows replay must count as "later" though they have no cursor to compare.
 *
 * <p>While rows are numbered one by one they are those whose {@code cursor} is still NULL. Once numbering goes by
 * tick ({@link TickNumbering}), they are the rows of transactions the last tick's snapshot did not see: running
 * then ({@code xip}), or given their id at or after its {@code xmax}. The statement reads the cursor state in its
 * own snapshot, so it agrees with the ticks it can see; rows that already have a cursor (restored rows, whose
 * transaction ids may fall anywhere) are left out. Three branches joined by {@code UNION ALL}, each behind a
 * condition on the state that PostgreSQL evaluates once, so only the branches of the current way of numbering scan
 * anything, each an index range bounded on both sides.
 */
final class UnnumberedRows {

    private static final String STATE = "(SELECT last_snapshot FROM streams_cursor_state WHERE id = 1)";

    private UnnumberedRows() {
    }

    /**
     * {@code SELECT columns} of the outbox rows {@code o} without a cursor that match {@code condition}; a
     * condition with parameters binds them once per branch, three times in all.
     */
    static String select(String columns, String condition) {
        String from = "SELECT " + columns + " FROM streams_outbox o WHERE (" + condition + ") AND ";
        // One probe of the unique index per row, never a hash of every numbered row (see TickNumbering).
        String notNumbered = " AND (SELECT true FROM streams_cursors c WHERE c.outbox_id = o.id) IS NULL";
        return from + STATE + " IS NULL AND o.cursor IS NULL"
                + " UNION ALL " + from + STATE + " IS NOT NULL"
                + " AND o.transaction_id = ANY (ARRAY(SELECT txid_snapshot_xip(" + STATE + ")))" + notNumbered
                + " UNION ALL " + from + STATE + " IS NOT NULL"
                + " AND o.transaction_id >= txid_snapshot_xmax(" + STATE + ")"
                + " AND o.transaction_id < txid_snapshot_xmax(txid_current_snapshot())" + notNumbered;
    }
}
