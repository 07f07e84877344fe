package io.objectstreams.it.soak;

import io.objectstreams.it.support.TestDatabase;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The writes of issue 40 that the demo's own pages never make, mixed into the soak's: order lines written in SQL by
 * a "batch job" (the lines are trigger-captured in the soak), moved from one order to another, removed through the
 * bidirectional helper ({@code DELETE api/orders/{id}/lines/{line}}), and an order moved to the other customer and
 * deleted by them in one delivery batch. Each returns the name it is counted under ({@code committed:...} or
 * {@code failed:...}).
 */
final class SoakShapes {

    private SoakShapes() {
    }

    /**
     * One write to the lines of {@code pk} (an order of {@code mine}, none of which another writer touches): a line
     * added, changed, moved to another order of {@code mine}, or removed through the helper as {@code actor}.
     */
    static String line(URL base, String actor, String pk, List<String> mine) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long order = Long.parseLong(pk);
        try (Connection c = TestDatabase.connect()) {
            Long line = firstLine(c, order);
            double dice = random.nextDouble();
            if (line == null || dice < 0.3) {
                update(c, "INSERT INTO store_order_line (order_id, product, quantity, unit_price)"
                        + " VALUES (?, 'soak', 1, 1.00)", order);
                return "committed:line-insert";
            }
            if (dice < 0.55) {
                update(c, "UPDATE store_order_line SET quantity = quantity + 1 WHERE id = ?", line);
                return "committed:line-update";
            }
            if (dice < 0.8 && mine.size() > 1) {
                // The trigger reports the line on both orders: the one it left and the one it joined (G16).
                String other = mine.get(random.nextInt(mine.size()));
                if (!other.equals(pk)) {
                    update(c, "UPDATE store_order_line SET order_id = " + Long.parseLong(other) + " WHERE id = ?", line);
                    return "committed:line-move";
                }
            }
            Http.Reply reply = Http.send(base, actor, "DELETE", "api/orders/" + pk + "/lines/" + line, null);
            return reply.ok() ? "committed:line-remove" : "failed:line-remove:" + reply.status();
        } catch (SQLException e) {
            return "failed:line:" + e.getSQLState();
        }
    }

    /**
     * Staff moves {@code pk} from {@code owner} to {@code newOwner}, who deletes it, while cursor assignment waits
     * (the row of {@code streams_cursor_state} locked in a transaction of the test's), so both rows are claimed, and
     * fanned out, in one batch: {@code owner}'s subscriptions must hear of the move alone (G8, G17). Returns whether
     * the delete committed, with the name to count.
     */
    static String transferAndDelete(URL base, String pk, String newOwner) {
        try (Connection hold = TestDatabase.connect(); Statement lock = hold.createStatement()) {
            hold.setAutoCommit(false);
            lock.execute("SET LOCAL lock_timeout = '5s'");
            lock.execute("SELECT last_cursor FROM streams_cursor_state WHERE id = 1 FOR UPDATE");
            try {
                Http.Reply move = Http.send(base, "carol", "PATCH", "api/orders/" + pk, "{\"owner\":\"" + newOwner + "\"}");
                if (!move.ok()) {
                    return "failed:transfer:" + move.status();
                }
                Http.Reply delete = Http.send(base, newOwner, "DELETE", "api/orders/" + pk, null);
                return delete.ok() ? "committed:transfer-delete" : "failed:transfer-delete:" + delete.status();
            } finally {
                hold.rollback();
            }
        } catch (SQLException e) {
            return "failed:transfer-delete:" + e.getSQLState();
        }
    }

    private static Long firstLine(Connection c, long order) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT min(id) FROM store_order_line WHERE order_id = ?")) {
            s.setLong(1, order);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            }
        }
    }

    private static void update(Connection c, String sql, long parameter) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, parameter);
            s.executeUpdate();
        }
    }
}
