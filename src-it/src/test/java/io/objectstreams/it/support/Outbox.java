package io.objectstreams.it.support;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads {@code streams_outbox} directly, as the tests' source of truth. */
public final class Outbox {

    /** One outbox row as stored. */
    public record Row(long id, Long cursor, String model, String pk, String facet, String op, List<String> changedFields,
                      long transactionId, String actor, String correlationId) {
    }

    private Outbox() {
    }

    /** The highest row id now; rows written later have greater ids. */
    public static long mark() {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(max(id), 0) FROM streams_outbox")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Rows written after {@code mark}, in id order. */
    public static List<Row> since(long mark) {
        String sql = "SELECT id, cursor, model, subject_pk, facet, op, changed_fields, transaction_id,"
                + " metadata->>'actor', metadata->>'correlation_id' FROM streams_outbox WHERE id > ? ORDER BY id";
        try (Connection c = TestDatabase.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, mark);
            List<Row> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Array fields = rs.getArray(7);
                    rows.add(new Row(rs.getLong(1), (Long) rs.getObject(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), Arrays.asList((String[]) fields.getArray()),
                            rs.getLong(8), rs.getString(9), rs.getString(10)));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
