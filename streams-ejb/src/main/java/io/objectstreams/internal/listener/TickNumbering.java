package io.objectstreams.internal.listener;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Logger;

/**
 * Numbers committed rows by tick, as PgQ cuts its batches (schema V7, docs/design/assignment.md): a tick numbers the
 * rows of every transaction that the last tick's snapshot did not see and this statement's snapshot does, in
 * {@code (wal_position, id)} order, and writes one narrow {@code streams_cursors} row for each. No outbox row is
 * rewritten, which is what made numbering one by one slow.
 *
 * <p>Such a transaction is either among those running at the last tick ({@code xip}) or took its id at or after
 * that snapshot's {@code xmax}: two index ranges on {@code transaction_id}. A transaction still running now is in
 * this snapshot's {@code xip}, so the next tick looks for it again; one this snapshot saw is never looked for again.
 * Rows the statement can see are exactly those of committed transactions, so only committed rows are numbered.
 *
 * <p>Every claim leaves out rows that already have a cursor, so rows restored from another cluster, whose
 * transaction ids may fall anywhere, are never numbered twice. Three other claims number rows without a cursor
 * beyond the tick's ranges, and record their snapshot: the switch from numbering one by one (the rows whose
 * {@code cursor} is NULL), the first batch after a session takes the assigner role (from the last tick's
 * {@code xmin} on), and a tick that finds transaction ids below the last tick's snapshot, a database restored into
 * another cluster (every row). The assigner's own transaction writes no outbox row, so its id, which its snapshot
 * leaves out, hides nothing.
 */
final class TickNumbering {

    private static final Logger LOG = Logger.getLogger(TickNumbering.class.getName());

    /**
     * Locks the cursor state row; returns its high cursor, whether rows are still numbered one by one, and whether
     * transaction ids have gone back below the last tick's snapshot.
     */
    static final String LOCK = "SELECT last_cursor, last_snapshot IS NULL, coalesce(txid_snapshot_xmax(last_snapshot)"
            + " > txid_snapshot_xmax(txid_current_snapshot()), false)"
            + " FROM streams_cursor_state WHERE id = 1 FOR UPDATE";

    /** The snapshots compared, read in the statement that numbers: its snapshot is the tick's. */
    private static final String STATE = "WITH st AS (SELECT last_cursor, last_snapshot AS prev,"
            + " txid_current_snapshot() AS cur FROM streams_cursor_state WHERE id = 1),";

    /**
     * Leaves out a row that already has a cursor: restored rows may carry transaction ids of any value. A scalar
     * subquery, not {@code NOT EXISTS}: the planner may turn an anti-join into a hash of all of
     * {@code streams_cursors} on every tick, while this is one probe of its unique index per claimed row.
     */
    private static final String NOT_NUMBERED = " AND (SELECT true FROM streams_cursors c"
            + " WHERE c.outbox_id = o.id) IS NULL";

    private static final String CLAIMED = " claimed AS (SELECT o.id, o.transaction_id, o.wal_position"
            + " FROM streams_outbox o";

    /**
     * The rows of transactions the last tick did not see; those this snapshot does not see are invisible to it.
     * Both branches are index ranges on {@code transaction_id}, whatever the statistics say.
     */
    private static final String TICK_CLAIM = CLAIMED
            + " WHERE o.transaction_id = ANY (ARRAY(SELECT txid_snapshot_xip(prev) FROM st))" + NOT_NUMBERED
            + " UNION ALL SELECT o.id, o.transaction_id, o.wal_position FROM streams_outbox o"
            + " WHERE o.transaction_id >= (SELECT txid_snapshot_xmax(prev) FROM st)"
            + " AND o.transaction_id < (SELECT txid_snapshot_xmax(cur) FROM st)" + NOT_NUMBERED + "),";

    /**
     * The switch from numbering one by one: every row whose {@code cursor} is still NULL, through the claim index,
     * which holds exactly those (every cursor written was copied into {@code streams_cursors}).
     */
    private static final String SWITCH_CLAIM = CLAIMED + " WHERE o.cursor IS NULL" + NOT_NUMBERED + "),";

    /**
     * On taking the role: every row without a cursor from the last tick's {@code xmin} on, an index range. A
     * holder that died mid-tick left nothing behind (its tick rolled back), so this only covers what the
     * {@code xmax} test cannot see: a restore into a cluster whose ids had already passed the recorded ones.
     */
    private static final String TAKEOVER_CLAIM = CLAIMED
            + " WHERE o.transaction_id >= (SELECT coalesce(txid_snapshot_xmin(prev), 0) FROM st)" + NOT_NUMBERED + "),";

    /**
     * Every visible row without a cursor, when transaction ids went backwards: the whole outbox, once, against the
     * whole of {@code streams_cursors}, so here the planner's anti-join is the right plan.
     */
    private static final String FULL_CLAIM = CLAIMED
            + " WHERE NOT EXISTS (SELECT 1 FROM streams_cursors c WHERE c.outbox_id = o.id)),";

    /**
     * Numbers the claimed rows after the high cursor and records this snapshot and the new high cursor, saying in
     * the statement that this version writes the state (the V7 guard). Each row's floor is a transaction id no
     * higher than that of any row numbered from it on: the lowest id among the rows after it in this numbering, and
     * at most this snapshot's {@code xmin}, since rows numbered later were not visible to it. Floors so never
     * decrease along the cursors, and a replay of one object after a cursor reads its rows from the next cursor's
     * floor on, even within one large numbering. If transaction ids went backwards, the floors above this
     * numbering's lowest are lowered to it, once ({@code lowered}), so that a replay from an older cursor still
     * finds the new rows. One sort, in reverse write order, gives both a row's place and the lowest id from it on.
     * The state is written only when rows were numbered, unless the first parameter asks for it (a reconciliation
     * records its snapshot even when it found nothing).
     */
    private static final String WRITE = " floors AS (SELECT id, count(*) OVER () + 1 - row_number() OVER w AS ord,"
            + " least(min(transaction_id) OVER w, (SELECT txid_snapshot_xmin(cur) FROM st)) AS floor"
            + " FROM claimed WINDOW w AS (ORDER BY wal_position DESC, id DESC)),"
            + " f AS (SELECT coalesce(min(floor), (SELECT txid_snapshot_xmin(cur) FROM st)) AS floor FROM floors),"
            + " lowered AS (UPDATE streams_cursors SET floor = (SELECT floor FROM f)"
            + " WHERE (SELECT floor FROM f) < (SELECT c.floor FROM streams_cursors c ORDER BY c.cursor DESC LIMIT 1)"
            + " AND floor > (SELECT floor FROM f) RETURNING 1),"
            + " written AS (INSERT INTO streams_cursors (cursor, outbox_id, floor)"
            + " SELECT (SELECT last_cursor FROM st) + ord, id, floor FROM floors RETURNING 1),"
            + " advanced AS (UPDATE streams_cursor_state SET last_cursor = (SELECT last_cursor FROM st)"
            + " + (SELECT count(*) FROM written), last_snapshot = (SELECT cur FROM st), updated_at = now()"
            + " WHERE id = 1 AND set_config('streams.schema', '7', true) = '7'"
            + " AND (? OR EXISTS (SELECT 1 FROM written)) RETURNING last_cursor)"
            + " SELECT last_cursor, (SELECT count(*) FROM written), (SELECT count(*) FROM lowered), pg_notify(?, '')"
            + " FROM advanced";

    /** The session mark's key: in {@code pg_locks}, {@code classid} is its upper half and {@code objid} the lower. */
    static final long MARK_SESSION_KEY = 0x0b5e_0007_0000_0007L;

    /**
     * Marks a session of this version: a shared advisory lock, held for the session's life, that nothing takes
     * exclusively. Key {@code 0x0b5e0007_00000007}.
     */
    static final String MARK_SESSION = "SELECT pg_advisory_lock_shared(" + MARK_SESSION_KEY + ")";

    /**
     * Sessions of a version before V7, which read and write {@code streams_outbox.cursor}: a listener or delivery
     * session, by application name, without this version's mark.
     */
    private static final String EARLIER_VERSION_SESSIONS = "SELECT count(*) FROM pg_stat_activity a"
            + " WHERE a.datname = current_database() AND a.application_name IN ('object-streams-listener',"
            + " 'object-streams-delivery') AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid"
            + " AND l.locktype = 'advisory' AND l.classid = " + (MARK_SESSION_KEY >>> 32) + " AND l.objid = "
            + (MARK_SESSION_KEY & 0xffff_ffffL) + " AND l.objsubid = 1)";

    /** What one tick or reconciliation did: the new high cursor, the rows numbered, whether it wrote the state. */
    record Outcome(long high, int numbered, boolean recorded) {
    }

    private final String cursorChannel;
    private boolean reconcile = true;

    TickNumbering(String cursorChannel) {
        this.cursorChannel = cursorChannel;
    }

    void reconcileNext() {
        reconcile = true;
    }

    /**
     * One tick, in the caller's transaction: locks the state row and numbers in two statements sent together.
     * Returns {@code null} if rows are still numbered one by one; reconciles instead when asked to, or when
     * transaction ids went backwards.
     */
    Outcome number(Connection connection) throws SQLException {
        boolean byRow;
        boolean wentBack;
        Outcome ticked;
        int timeout = patient(connection);
        try (PreparedStatement tick = connection.prepareStatement(LOCK + "; " + STATE + TICK_CLAIM + WRITE)) {
            tick.setBoolean(1, false);
            tick.setString(2, cursorChannel);
            tick.execute();
            try (ResultSet rs = tick.getResultSet()) {
                if (!rs.next()) {
                    throw new SQLException("streams_cursor_state has no row; the schema migration did not complete");
                }
                byRow = rs.getBoolean(2);
                wentBack = rs.getBoolean(3);
            }
            tick.getMoreResults();
            ticked = outcome(tick.getResultSet(), false);
        } finally {
            connection.setNetworkTimeout(Runnable::run, timeout);
        }
        if (byRow) {
            return null;
        }
        if (wentBack || reconcile) {
            if (wentBack) {
                LOG.warning("Object Streams: transaction ids are below the last tick's snapshot (a database restored"
                        + " into another cluster?); numbering every row without a cursor");
            }
            Outcome reconciled = write(connection, wentBack ? FULL_CLAIM : TAKEOVER_CLAIM);
            return new Outcome(reconciled.high(), ticked.numbered() + reconciled.numbered(), true);
        }
        return ticked;
    }

    /**
     * The switch from numbering one by one, in the caller's transaction, which holds the state row's lock: numbers
     * every row still without a cursor and records this snapshot.
     */
    Outcome switchToTicks(Connection connection) throws SQLException {
        return write(connection, SWITCH_CLAIM);
    }

    /** Numbers the rows {@code claim} finds and records this snapshot, even if it found none. */
    private Outcome write(Connection connection, String claim) throws SQLException {
        int timeout = patient(connection);
        try (PreparedStatement write = connection.prepareStatement(STATE + claim + WRITE)) {
            write.setBoolean(1, true);
            write.setString(2, cursorChannel);
            try (ResultSet rs = write.executeQuery()) {
                Outcome outcome = outcome(rs, true);
                reconcile = false;
                return outcome;
            }
        } finally {
            connection.setNetworkTimeout(Runnable::run, timeout);
        }
    }

    /**
     * Lets one numbering statement run longer than the session's usual socket timeout (30 s by default): a tick
     * after a long outage, or a reconciliation of a restored outbox, numbers every row at once, and a statement cut
     * off by the timeout would only be run again, from the start, by the next holder of the role. A dead database
     * is still noticed by the session's TCP settings. Returns the timeout to restore.
     */
    private static int patient(Connection connection) throws SQLException {
        int timeout = connection.getNetworkTimeout();
        if (timeout > 0) {
            connection.setNetworkTimeout(Runnable::run, Math.max(timeout, PATIENCE_MILLIS));
        }
        return timeout;
    }

    private static final int PATIENCE_MILLIS = 30 * 60 * 1000;

    private static Outcome outcome(ResultSet rs, boolean recorded) throws SQLException {
        try (rs) {
            if (!rs.next()) {
                return new Outcome(-1, 0, false);
            }
            long lowered = rs.getLong(3);
            if (lowered > 0) {
                LOG.warning(() -> "Object Streams lowered the replay floor of " + lowered + " numbered rows:"
                        + " transaction ids went backwards");
            }
            return new Outcome(rs.getLong(1), rs.getInt(2), recorded);
        }
    }

    /**
     * After the switch, drops the partial index that only numbering one by one reads: every new row would stay in
     * it, since ticks never write {@code streams_outbox.cursor}, and every write would pay for it. In the caller's
     * transaction, which it commits or rolls back; a lock it cannot take within 100 ms, or a table this user does not
     * own, leaves the index and says so (docs/schema.md, V7).
     */
    static void dropRowClaimIndex(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet rs = statement.executeQuery("SELECT to_regclass('streams_outbox_claim') IS NULL")) {
                rs.next();
                if (rs.getBoolean(1)) {
                    connection.rollback();
                    return;
                }
            }
            statement.execute("SET LOCAL lock_timeout = '100ms'");
            statement.execute("DROP INDEX IF EXISTS streams_outbox_claim");
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            LOG.warning("Object Streams could not drop streams_outbox_claim, which numbering by tick no longer reads"
                    + " and every write still pays for (" + e.getMessage() + "); drop it yourself"
                    + " (DROP INDEX CONCURRENTLY streams_outbox_claim); the next assigner tries again");
        }
    }

    /**
     * How many sessions of an earlier version (a listener or delivery session, by application name, without this
     * version's mark) are connected to this database. Such a session reads {@code streams_outbox.cursor}, which ticks
     * do not write.
     */
    static long earlierVersionSessions(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(EARLIER_VERSION_SESSIONS)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
