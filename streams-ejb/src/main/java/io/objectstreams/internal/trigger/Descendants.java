package io.objectstreams.internal.trigger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The partitions and inheritance children of a trigger-captured table, at every depth, schema-qualified. A statement
 * fires only the statement triggers of the table it names, so a write naming a descendant is captured only by
 * triggers of the descendant's own (G16).
 */
final class Descendants {

    private static final String QUERY = "WITH RECURSIVE d(oid) AS (SELECT inhrelid FROM pg_inherits"
            + " WHERE inhparent = to_regclass(?) UNION SELECT i.inhrelid FROM pg_inherits i"
            + " JOIN d ON i.inhparent = d.oid)"
            + " SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) FROM d JOIN pg_class c ON c.oid = d.oid"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN (?, ?) ORDER BY 1";

    private Descendants() {
    }

    /** The tables (plain or partitioned) below {@code qualifiedTable}, which carry capture triggers of their own. */
    static List<String> of(Connection connection, String qualifiedTable) throws SQLException {
        return query(connection, qualifiedTable, "r", "p");
    }

    /**
     * The foreign tables below {@code qualifiedTable} (a partition on another server): they can carry no transition
     * table, so writes naming them cannot be captured, and the check says so.
     */
    static List<String> foreign(Connection connection, String qualifiedTable) throws SQLException {
        return query(connection, qualifiedTable, "f", "f");
    }

    private static List<String> query(Connection connection, String qualifiedTable, String kind, String otherKind)
            throws SQLException {
        List<String> tables = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setString(1, qualifiedTable);
            query.setString(2, kind);
            query.setString(3, otherKind);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
        }
        return tables;
    }
}
