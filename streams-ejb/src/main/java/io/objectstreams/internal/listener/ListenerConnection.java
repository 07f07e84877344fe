package io.objectstreams.internal.listener;

import io.objectstreams.internal.config.ListenerSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The listener's one dedicated PostgreSQL session: unpooled, because LISTEN and the assigner's advisory
 * lock are session state that a pool would hand to somebody else or keep alive after we are gone.
 */
final class ListenerConnection implements AutoCloseable {

    static final String APPLICATION_NAME = "object-streams-listener";

    /** Fixed key of the assigner role among the database's advisory locks (G7). */
    private static final long ASSIGNER_LOCK = 0x0b5e_c7_5e_0002L;

    private final Connection connection;
    private final PGConnection pg;

    private ListenerConnection(Connection connection) throws SQLException {
        this.connection = connection;
        this.pg = connection.unwrap(PGConnection.class);
    }

    static ListenerConnection open(ListenerSettings settings) throws SQLException {
        ListenerConnection listener = new ListenerConnection(dataSource(settings, APPLICATION_NAME).getConnection());
        try (Statement statement = listener.connection.createStatement()) {
            statement.execute("LISTEN " + settings.notifyChannel());
            statement.execute("LISTEN " + settings.cursorChannel());
        } catch (SQLException e) {
            listener.close();
            throw e;
        }
        return listener;
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

    /** Takes the assigner role if nobody holds it; held until this session ends. */
    boolean tryAssignerRole() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_try_advisory_lock(" + ASSIGNER_LOCK + ")")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** Waits up to {@code millis} for notifications; returns how many arrived. Throws if the session died. */
    int awaitNotifications(int millis) throws SQLException {
        PGNotification[] batch = pg.getNotifications(millis);
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
