package io.objectstreams.it.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Writes outbox rows directly, as an application transaction (or a capture trigger) would. */
public final class OutboxWriters {

    private OutboxWriters() {
    }

    public static long insert(Connection connection, String model, String pk) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO streams_outbox (model, subject_pk, op) VALUES (?, ?, 'updated') RETURNING id")) {
            insert.setString(1, model);
            insert.setString(2, pk);
            try (var rs = insert.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public static Long cursorOf(String model, String pk) throws SQLException {
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(
                "SELECT cursor FROM streams_numbered WHERE model = ? AND subject_pk = ?")) {
            s.setString(1, model);
            s.setString(2, pk);
            try (var rs = s.executeQuery()) {
                return rs.next() ? (Long) rs.getObject(1) : null;
            }
        }
    }
}
