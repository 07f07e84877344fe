package io.objectstreams.it.support;

import io.objectstreams.internal.schema.SchemaMigrator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A release of Object Streams before schema V7, simulated by its own SQL: the schema it migrated to (V1 to V6,
 * recorded as its migrator records them) and its assigner, which numbers rows one by one in
 * {@code streams_outbox.cursor}. Its listener's sessions were named {@code object-streams-listener}, without the mark
 * this version's sessions hold; a test that plays it names its session so.
 */
public final class EarlierRelease {

    private EarlierRelease() {
    }

    /** Creates the schema of V1 to V6 in the connection's current schema, in one transaction, as its migrator did. */
    public static void createSchema(Connection connection) throws SQLException, IOException {
        connection.setAutoCommit(false); // as the migrator runs them: V5 locks the outbox
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE streams_schema_history (version integer PRIMARY KEY, description text NOT NULL,"
                    + " applied_at timestamptz NOT NULL DEFAULT now())");
            String[] versions = {"1__outbox", "2__retention", "3__trigger_capture", "4__write_order",
                    "5__assigned_cursor_index", "6__trigger_batches"};
            for (String version : versions) {
                s.execute(resource("V" + version + ".sql"));
                s.execute("INSERT INTO streams_schema_history (version, description) VALUES ("
                        + version.substring(0, 1) + ", '" + version.substring(3) + "')");
            }
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    /**
     * One batch as the assigner of the version before V7 numbered it, in its own SQL: the state row locked, the
     * oldest unnumbered rows in write order, each row's cursor written, the high cursor raised. Returns how many rows
     * it numbered.
     */
    public static int assignBatch(Connection connection, int batchSize) throws SQLException {
        connection.setAutoCommit(false);
        long last;
        List<Long> ids = new ArrayList<>();
        try (Statement claim = connection.createStatement()) {
            claim.execute("SELECT last_cursor FROM streams_cursor_state WHERE id = 1 FOR UPDATE; SELECT id"
                    + " FROM streams_outbox WHERE cursor IS NULL ORDER BY wal_position, id LIMIT " + batchSize);
            try (ResultSet rs = claim.getResultSet()) {
                rs.next();
                last = rs.getLong(1);
            }
            claim.getMoreResults();
            try (ResultSet rs = claim.getResultSet()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        Array batch = connection.createArrayOf("bigint", ids.toArray());
        try (PreparedStatement assign = connection.prepareStatement("WITH numbered AS (UPDATE streams_outbox"
                + " SET cursor = ? + array_position(?::bigint[], id) WHERE id = ANY(?) RETURNING 1)"
                + " UPDATE streams_cursor_state SET last_cursor = ? + (SELECT count(*) FROM numbered),"
                + " updated_at = now() WHERE id = 1")) {
            assign.setLong(1, last);
            assign.setArray(2, batch);
            assign.setArray(3, batch);
            assign.setLong(4, last);
            assign.executeUpdate();
        }
        connection.commit();
        connection.setAutoCommit(true);
        return ids.size();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SchemaMigrator.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
