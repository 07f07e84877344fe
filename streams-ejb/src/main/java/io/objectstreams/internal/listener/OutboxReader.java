package io.objectstreams.internal.listener;

import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.feed.LaterDeletes;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads assigned rows, in cursor order, as {@link StreamEvent}s: all of them, or one subject's. */
public final class OutboxReader {

    /** The event's columns, of an outbox row {@code o} and its cursor {@code c} (0 while it has none). */
    private static final String FIELDS = "SELECT coalesce(c.cursor, 0), o.model, o.subject_pk, o.facet, o.op,"
            + " o.changed_fields, o.transaction_id, o.metadata->>'actor', o.metadata->>'correlation_id',"
            + " o.created_at, o.metadata->>'traceparent'";

    /** Numbered rows, along the cursors' primary key (schema V7: cursors live in {@code streams_cursors}). */
    private static final String COLUMNS = FIELDS
            + " FROM streams_cursors c JOIN streams_outbox o ON o.id = c.outbox_id";

    private static final String READ = COLUMNS + " WHERE c.cursor > ? ORDER BY c.cursor LIMIT ?";

    /**
     * A transaction id no higher than that of any row numbered after the cursor bound twice ({@code ?}): the floor
     * recorded with the next cursor, or, past the high cursor, the last tick's {@code xmin} (rows it did not see).
     * 0, the whole history, where neither is known: numbered one by one, or the next cursor pruned.
     */
    private static final String FLOOR = "(SELECT CASE WHEN ? >= s.last_cursor"
            + " THEN coalesce(txid_snapshot_xmin(s.last_snapshot), 0) ELSE coalesce((SELECT f.floor FROM"
            + " streams_cursors f WHERE f.cursor = s.after + 1), 0) END FROM (SELECT *, ?::bigint AS after FROM"
            + " streams_cursor_state WHERE id = 1) s)";

    /** One subject's rows from the floor on, through the subject index; with their cursors, if they have one. */
    private static final String SUBJECT_ROWS = " FROM streams_outbox o LEFT JOIN streams_cursors c"
            + " ON c.outbox_id = o.id WHERE o.model = ? AND o.transaction_id >= " + FLOOR;

    /**
     * A subject's rows, and its model's truncations: a capture trigger writes those with an empty pk. Both come
     * through the subject index; an object whose pk is the empty string is not a truncation.
     */
    private static final String READ_SUBJECT = FIELDS + SUBJECT_ROWS + " AND o.subject_pk IN (?, '')"
            + " AND (o.subject_pk = ? OR o.op = 'truncated') AND c.cursor > ? AND c.cursor <= ?"
            + " ORDER BY c.cursor LIMIT ?";

    private static final String READ_MODEL = COLUMNS
            + " WHERE c.cursor > ? AND c.cursor <= ? AND o.model = ? ORDER BY c.cursor LIMIT ?";

    /** What {@link #readDeletedAfter} looks for: an object's delete, or its model's truncation (an empty pk). */
    private static final String GONE = " AND (o.op = 'truncated' OR o.op = 'deleted' AND o.facet = 'object')";

    /**
     * Named subjects after a cursor: numbered later, or committed and not numbered yet. The empty pk among them
     * finds a truncation.
     */
    private static final String DELETED_AFTER = "SELECT o.subject_pk, o.op" + SUBJECT_ROWS
            + " AND o.subject_pk = ANY (?) AND (c.cursor > ? OR c.cursor IS NULL)" + GONE;

    /**
     * Every subject of the model, along the cursors' key (the rows after a recent cursor are few), and the rows not
     * numbered yet.
     */
    private static final String ANY_DELETED_AFTER = "SELECT o.subject_pk, o.op FROM streams_cursors c"
            + " JOIN streams_outbox o ON o.id = c.outbox_id WHERE c.cursor > ? AND o.model = ?" + GONE
            + " UNION " + UnnumberedRows.select("o.subject_pk, o.op", "o.model = ?" + GONE);

    /**
     * The subjects of {@code model} deleted by a row after {@code after}: assigned a later cursor, or committed and
     * not yet assigned one (which will be later). Among {@code pks}, or any when {@code null}.
     *
     * @return the deleted pks, and whether the model was truncated after the cursor
     */
    public static LaterDeletes readDeletedAfter(Connection connection, String model, Collection<String> pks,
                                           long after) throws SQLException {
        boolean named = pks != null;
        try (PreparedStatement read = connection.prepareStatement(named ? DELETED_AFTER : ANY_DELETED_AFTER)) {
            if (named) {
                bindSubjectsAfter(connection, read, model, pks, after);
            } else {
                read.setLong(1, after);
                read.setString(2, model);
                for (int i = 3; i <= 5; i++) {
                    read.setString(i, model);
                }
            }
            Set<String> deleted = new HashSet<>();
            boolean truncated = false;
            try (ResultSet rs = read.executeQuery()) {
                while (rs.next()) {
                    if ("truncated".equals(rs.getString(2))) {
                        truncated = true;
                    } else {
                        deleted.add(rs.getString(1));
                    }
                }
            }
            return new LaterDeletes(Set.copyOf(deleted), truncated);
        }
    }

    /**
     * Named subjects' rows after a cursor: assigned later (through the subject index) or not yet assigned. The empty
     * pk among them finds the model's truncations.
     */
    private static final String ROWS_AFTER = FIELDS + SUBJECT_ROWS
            + " AND o.subject_pk = ANY (?) AND (c.cursor > ? OR c.cursor IS NULL)";

    /**
     * The rows of {@code model} about {@code pks}, and its truncations, committed after {@code after}: with a later
     * cursor, or none yet (cursor 0 in the events). In no particular order.
     */
    public static List<StreamEvent> readRowsAfter(Connection connection, String model, Collection<String> pks,
                                                  long after) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(ROWS_AFTER)) {
            bindSubjectsAfter(connection, read, model, pks, after);
            return events(read);
        }
    }

    /**
     * Binds the parameters of a query over named subjects after a cursor, assigned or not ({@link #DELETED_AFTER},
     * {@link #ROWS_AFTER}): the model, the pks with the empty one that finds truncations, and the cursor.
     */
    private static void bindSubjectsAfter(Connection connection, PreparedStatement read, String model,
                                          Collection<String> pks, long after) throws SQLException {
        List<String> withTruncation = new ArrayList<>(pks);
        withTruncation.add("");
        Array array = connection.createArrayOf("text", withTruncation.toArray());
        read.setString(1, model);
        read.setLong(2, after);
        read.setLong(3, after);
        read.setArray(4, array);
        read.setLong(5, after);
    }

    /**
     * The high cursor assigned so far, how far retention has deleted (the watermark), and when retention last ran
     * ({@code null}: never).
     */
    public record CursorState(long lastCursor, long prunedThrough, Instant prunedAt) {
    }

    private OutboxReader() {
    }

    public static List<StreamEvent> readAfter(Connection connection, long cursor, int limit) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ)) {
            read.setLong(1, cursor);
            read.setInt(2, limit);
            return events(read);
        }
    }

    /** One subject's assigned rows after a cursor (the subject index keeps this cheap). */
    public static List<StreamEvent> readSubjectBetween(Connection connection, String model, String pk, long after,
                                                       long through, int limit) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ_SUBJECT)) {
            read.setString(1, model);
            read.setLong(2, after);
            read.setLong(3, after);
            read.setString(4, pk);
            read.setString(5, pk);
            read.setLong(6, after);
            read.setLong(7, through);
            read.setInt(8, limit);
            return events(read);
        }
    }

    /**
     * One model's assigned rows after a cursor and up to another, in cursor order: read along the cursor index, so
     * the cost follows the size of the range, not of the model's history.
     */
    public static List<StreamEvent> readModelBetween(Connection connection, String model, long after, long through,
                                                     int limit) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(READ_MODEL)) {
            read.setLong(1, after);
            read.setLong(2, through);
            read.setString(3, model);
            read.setInt(4, limit);
            return events(read);
        }
    }

    /**
     * The cursor state with the backlog: committed rows still without a cursor, and how long the oldest has waited
     * ({@code created_at} is its insert time).
     */
    public record Progress(CursorState state, long backlogRows, Duration oldestBacklog) {
    }

    /** The state columns; no state row reads as cursor 0, never pruned. */
    private static final String STATE = "coalesce(s.last_cursor, 0), coalesce(s.pruned_through, 0), s.pruned_at";

    private static final String PROGRESS = "SELECT " + STATE + ", b.rows, b.age FROM (SELECT count(*) AS rows,"
            + " coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0) AS age"
            + " FROM (" + UnnumberedRows.select("o.created_at", "true") + ") u) b"
            + " LEFT JOIN streams_cursor_state s ON s.id = 1";

    public static CursorState cursorState(Connection connection) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement("SELECT " + STATE
                + " FROM (SELECT 1) one LEFT JOIN streams_cursor_state s ON s.id = 1");
             ResultSet rs = read.executeQuery()) {
            rs.next();
            return state(rs);
        }
    }

    /** The cursor state and the backlog, in one round trip. */
    public static Progress progress(Connection connection) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(PROGRESS); ResultSet rs = read.executeQuery()) {
            rs.next();
            return new Progress(state(rs), rs.getLong(4), Duration.ofMillis((long) (rs.getDouble(5) * 1000)));
        }
    }

    private static CursorState state(ResultSet rs) throws SQLException {
        Timestamp prunedAt = rs.getTimestamp(3);
        return new CursorState(rs.getLong(1), rs.getLong(2), prunedAt == null ? null : prunedAt.toInstant());
    }

    private static List<StreamEvent> events(PreparedStatement read) throws SQLException {
        List<StreamEvent> events = new ArrayList<>();
        try (ResultSet rs = read.executeQuery()) {
            while (rs.next()) {
                Array fields = rs.getArray(6);
                events.add(new StreamEvent(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        EventOperation.fromWireName(rs.getString(5)), Arrays.asList((String[]) fields.getArray()),
                        rs.getLong(7), rs.getString(8), rs.getString(9), rs.getTimestamp(10).toInstant(),
                        rs.getString(11)));
            }
        }
        return events;
    }
}
