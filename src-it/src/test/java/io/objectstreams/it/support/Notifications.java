package io.objectstreams.it.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** A LISTEN session in the test JVM, counting the wakeups the server sends on a channel. */
public final class Notifications implements AutoCloseable {

    private final Connection connection;
    private final String channel;

    private Notifications(Connection connection, String channel) {
        this.connection = connection;
        this.channel = channel;
    }

    /**
     * Listens on the channel and first lets any wakeup still in flight from earlier tests arrive and be
     * discarded, so {@link #countFor(long)} sees only what the test itself causes.
     */
    public static Notifications listen(String channel) throws SQLException {
        Connection connection = TestDatabase.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + channel);
        }
        Notifications notifications = new Notifications(connection, channel);
        notifications.countFor(500);
        return notifications;
    }

    /** How many notifications on the channel arrive within the window. */
    public int countFor(long millis) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        long deadline = System.currentTimeMillis() + millis;
        int count = 0;
        for (long left = millis; left > 0; left = deadline - System.currentTimeMillis()) {
            PGNotification[] batch = pg.getNotifications((int) left);
            if (batch != null) {
                for (PGNotification n : batch) {
                    if (n.getName().equals(channel)) {
                        count++;
                    }
                }
            }
        }
        return count;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
