package io.objectstreams.internal.listener;

import io.objectstreams.feed.ListenerSettings;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The listener's one dedicated PostgreSQL session: unpooled, because LISTEN and the assigner's advisory
 * lock are session state that a pool would hand to somebody else or keep alive after we are gone.
 */
public final class ListenerConnection implements AutoCloseable {

    static final String APPLICATION_NAME = "object-streams-listener";

    private static final Logger LOG = Logger.getLogger(ListenerConnection.class.getName());

    /** The high half of every assigner lock key: marks the lock as Object Streams' among advisory locks. */
    private static final long ASSIGNER_LOCK_TAG = 0x0b5e_c75eL;

    /** The outbox table this session's {@code search_path} resolves, schema-qualified; null if there is none. */
    private static final String OUTBOX_TABLE = "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname)"
            + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.oid = to_regclass('streams_outbox')";

    /**
     * The session holding an assigner lock, if it has been idle (no statement sent) for longer than the given
     * seconds: a live assigner runs statements at every poll interval.
     */
    private static final String STALE_HOLDER = "SELECT a.pid, extract(epoch FROM clock_timestamp() - a.state_change)"
            + " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            + " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            + " AND l.classid::bigint = ? AND l.objid::bigint = ? AND a.pid <> pg_backend_pid()"
            + " AND a.state LIKE 'idle%' AND a.state_change < clock_timestamp() - make_interval(secs => ?)";

    private final Connection connection;
    private final PGConnection pg;
    private final String outboxTable;
    private final long assignerLock;
    private final String cursorChannel;

    private ListenerConnection(Connection connection, String cursorChannel) throws SQLException {
        this.connection = connection;
        this.cursorChannel = cursorChannel;
        this.pg = connection.unwrap(PGConnection.class);
        this.outboxTable = outboxTable(connection);
        this.assignerLock = assignerLock(outboxTable);
    }

    static ListenerConnection open(ListenerSettings settings) throws SQLException {
        Connection jdbc = dataSource(settings, APPLICATION_NAME).getConnection();
        ListenerConnection listener;
        try {
            listener = new ListenerConnection(jdbc, settings.cursorChannel());
        } catch (SQLException | RuntimeException e) {
            jdbc.close();
            throw e;
        }
        try (Statement statement = listener.connection.createStatement()) {
            detectDeadPeer(statement, settings.deadSessionTimeout());
            statement.execute(TickNumbering.MARK_SESSION);
            statement.execute("LISTEN " + settings.notifyChannel());
            statement.execute("LISTEN " + settings.cursorChannel());
        } catch (SQLException e) {
            listener.close();
            throw e;
        }
        return listener;
    }

    /**
     * Asks the database to drop this session once the client stops answering: TCP keep-alive from the server
     * side, and {@code tcp_user_timeout} for data left unacknowledged. Without them a partitioned or frozen
     * assigner's backend would keep the role's lock for the kernel's defaults (two hours and more). Settings
     * this server does not know (before PostgreSQL 12) are skipped; fencing still bounds the takeover.
     */
    private static void detectDeadPeer(Statement statement, Duration timeout) {
        long seconds = Math.max(3, timeout.toSeconds());
        Map<String, Long> settings = new LinkedHashMap<>();
        settings.put("tcp_keepalives_idle", Math.max(1, seconds / 3));
        settings.put("tcp_keepalives_interval", Math.max(1, seconds / 9));
        settings.put("tcp_keepalives_count", 3L);
        settings.put("tcp_user_timeout", timeout.toMillis());
        settings.forEach((name, value) -> {
            try {
                statement.execute("SET " + name + " = " + value);
            } catch (SQLException unsupported) {
                LOG.log(Level.FINE, "This PostgreSQL does not accept " + name + "; skipped", unsupported);
            }
        });
    }

    /**
     * The outbox table {@code connection}'s {@code search_path} resolves, schema-qualified; retention keys its
     * pruning lock on it as the assigner keys its own.
     */
    public static String outboxTable(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(OUTBOX_TABLE)) {
            String table = rs.next() ? rs.getString(1) : null;
            if (table == null) {
                throw new SQLException("There is no streams_outbox table in the search_path of the listener's session;"
                        + " point streams.listener.url (its currentSchema, or the user's search_path) at the schema"
                        + " the application's outbox is in");
            }
            return table;
        }
    }

    /**
     * The assigner lock's key for one outbox table: two applications with outboxes in different schemas of one
     * database each have an assigner, and every instance of one application computes the same key.
     */
    static long assignerLock(String qualifiedOutboxTable) {
        return ASSIGNER_LOCK_TAG << 32 | (qualifiedOutboxTable.hashCode() & 0xffff_ffffL);
    }

    /** The schema-qualified outbox table this session serves. */
    String outboxTable() {
        return outboxTable;
    }

    /** Unpooled sessions to the listener's database, named {@code applicationName} in {@code pg_stat_activity}. */
    static PGSimpleDataSource dataSource(ListenerSettings settings, String applicationName) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL(settings.url());
        if (settings.user() != null) {
            source.setUser(settings.user());
        }
        if (settings.password() != null) {
            source.setPassword(settings.password());
        }
        source.setApplicationName(applicationName);
        source.setTcpKeepAlive(true);
        source.setConnectTimeout(10);
        // A silently dead peer must surface as an error within a bound, not hang the thread forever.
        source.setSocketTimeout((int) Math.max(30, settings.pollInterval().toSeconds() * 5));
        return source;
    }

    Connection jdbc() {
        return connection;
    }

    /** Stops listening on the cursor channel: for the assigner, which announces cursors and need not hear them. */
    void stopHearingCursors() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("UNLISTEN " + cursorChannel);
        }
    }

    /** Takes the assigner role if nobody holds it; held until this session ends. */
    boolean tryAssignerRole() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_try_advisory_lock(" + assignerLock + ")")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * Ends the session that holds the assigner role if it has been idle longer than {@code timeout}: its client
     * is gone or frozen (a half-open connection the database has not noticed), and while it holds the lock
     * nobody assigns cursors. Returns the fenced backend's pid, or 0. Needs the right to see and signal that
     * backend (the same database user on every instance, or {@code pg_signal_backend} and
     * {@code pg_read_all_stats}); without it nothing is fenced.
     */
    int fenceStaleAssigner(Duration timeout) throws SQLException {
        int pid = 0;
        double idle = 0;
        try (PreparedStatement find = connection.prepareStatement(STALE_HOLDER)) {
            find.setLong(1, assignerLock >>> 32);
            find.setLong(2, assignerLock & 0xffff_ffffL);
            find.setDouble(3, timeout.toMillis() / 1000.0);
            try (ResultSet rs = find.executeQuery()) {
                if (rs.next()) {
                    pid = rs.getInt(1);
                    idle = rs.getDouble(2);
                }
            }
        }
        if (pid == 0) {
            return 0;
        }
        try (PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
            terminate.setInt(1, pid);
            try (ResultSet rs = terminate.executeQuery()) {
                if (rs.next() && rs.getBoolean(1)) {
                    double seconds = idle;
                    int fenced = pid;
                    LOG.warning(() -> String.format("Object Streams fenced the assigner session (backend pid %d): it"
                            + " sent nothing for %.1f s, longer than streams.listener.dead-session-timeout",
                            fenced, seconds));
                    return pid;
                }
            }
        }
        return 0;
    }

    /** What woke the loop: nothing (the poll floor), commits only, or an assigner's announcement of new cursors. */
    enum Wakeup { NONE, WRITES, CURSORS }

    /** Waits up to {@code millis} for notifications; says what arrived. Throws if the session died. */
    Wakeup awaitNotifications(int millis) throws SQLException {
        PGNotification[] batch = pg.getNotifications(millis);
        if (batch == null || batch.length == 0) {
            return Wakeup.NONE;
        }
        for (PGNotification notification : batch) {
            if (notification.getName().equals(cursorChannel)) {
                return Wakeup.CURSORS;
            }
        }
        return Wakeup.WRITES;
    }

    /** Takes the notifications that have arrived, without waiting; returns how many. */
    int drainNotifications() throws SQLException {
        PGNotification[] batch = pg.getNotifications();
        return batch == null ? 0 : batch.length;
    }

    /** Breaks a blocked wait from another thread: used by shutdown when the loop does not stop in time. */
    void abort() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing is all we wanted
        }
    }

    @Override
    public void close() {
        abort();
    }
}
