package io.objectstreams.internal.listener;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads assigned rows after a cursor, in cursor order, as {@link StreamEvent}s. */
public final class OutboxReader {

    private static final String READ = """
            SELECT cursor, model, subject_pk, facet, op, changed_fields, transaction_id,
                   metadata->>'actor', metadata->>'correlation_id', created_at
              FROM streams_outbox WHERE cursor > ? ORDER BY cursor LIMIT ?""";

    private OutboxReader() {
    }

    public static List<StreamEvent> readAfter(Connection connection, long cursor, int limit) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ)) {
            read.setLong(1, cursor);
            read.setInt(2, limit);
            List<StreamEvent> events = new ArrayList<>();
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    Array fields = rs.getArray(6);
                    events.add(new StreamEvent(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            EventOperation.fromWireName(rs.getString(5)), Arrays.asList((String[]) fields.getArray()),
                            rs.getLong(7), rs.getString(8), rs.getString(9), rs.getTimestamp(10).toInstant()));
                }
            }
            return events;
        }
    }
}
