package io.objectstreams.internal.trigger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the database holds of trigger capture, against what the mappings ask: the captured tables and their
 * columns, and on each the four capture triggers, enabled and marked with the current mapping's hash. Every
 * difference is a problem in words an operator can act on, naming the table and the fix; a table the entity
 * listener captures must carry no capture trigger, or its writes would be captured twice.
 */
public final class TriggerCatalog {

    private static final String COLUMNS = "SELECT column_name, data_type FROM information_schema.columns"
            + " WHERE table_schema = coalesce(?, current_schema()) AND table_name = ?";

    private static final String TRIGGERS = "SELECT t.tgname, t.tgenabled, obj_description(t.oid, 'pg_trigger')"
            + " FROM pg_trigger t WHERE t.tgrelid = to_regclass(?) AND NOT t.tgisinternal"
            + " AND t.tgname LIKE 'streams\\_capture\\_%'";

    /** Fixed: Object Streams' lock for installing triggers, beside the migration's. */
    private static final long INSTALL_LOCK = 0x0b5e_c7_5e_0002L;

    private TriggerCatalog() {
    }

    /** The columns of a mapping's table and their data types; empty when the table does not exist. */
    public static Map<String, String> columnTypes(Connection connection, TableMapping mapping) throws SQLException {
        Map<String, String> types = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(COLUMNS)) {
            query.setString(1, mapping.schema());
            query.setString(2, mapping.table());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    types.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return types;
    }

    /**
     * What stands between the table and capture by {@code sql}; empty when its four triggers are installed, enabled
     * and current. {@code types} are the table's columns ({@link #columnTypes}).
     */
    public static List<String> problems(Connection connection, TableMapping mapping, Map<String, String> types,
                                        TriggerSql sql) throws SQLException {
        List<String> problems = new ArrayList<>();
        String table = mapping.qualifiedTable();
        if (types.isEmpty()) {
            problems.add("table " + table + " of " + mapping.entity() + " does not exist");
            return problems;
        }
        List<String> missing = mapping.columns().stream().filter(c -> !types.containsKey(c)).toList();
        if (!missing.isEmpty()) {
            problems.add("table " + table + " has no column " + String.join(", ", missing) + " that " + mapping.entity()
                    + " maps; fix the table or the mapping (a provider naming strategy needs @Column names), then"
                    + " reinstall its capture triggers");
            return problems;
        }
        Map<String, String[]> found = triggers(connection, table);
        for (String trigger : TriggerSql.TRIGGERS) {
            String[] state = found.get(trigger);
            if (state == null) {
                problems.add("table " + table + " has no trigger " + trigger + ": its writes are not captured; "
                        + installHint());
            } else if (!(TriggerSql.MARK + sql.hash()).equals(state[1])) {
                problems.add("trigger " + trigger + " on " + table + " was installed for another mapping of "
                        + mapping.entity() + " (" + state[1] + ", now " + sql.hash() + "); " + installHint());
            } else if ("D".equals(state[0])) {
                problems.add("trigger " + trigger + " on " + table + " is disabled (ALTER TABLE ... DISABLE TRIGGER):"
                        + " its writes are not captured; enable it");
            }
        }
        return problems;
    }

    /** The capture triggers found on a table the entity listener captures: each would capture its writes again. */
    public static List<String> strays(Connection connection, String entity, String qualifiedTable) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (String trigger : triggers(connection, qualifiedTable).keySet()) {
            problems.add("table " + qualifiedTable + " carries capture trigger " + trigger + ", but " + entity
                    + " is captured by the entity listener: its writes would be captured twice. Drop the trigger, or"
                    + " capture it by trigger (@Streamed(capture = TRIGGER) or streams.capture.<entity>=trigger)");
        }
        return problems;
    }

    /** Installs every given table's capture in one transaction, holding Object Streams' install lock. */
    public static void install(Connection connection, List<TriggerSql> tables) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_xact_lock(" + INSTALL_LOCK + ")");
            for (TriggerSql table : tables) {
                for (String sql : table.install()) {
                    statement.execute(sql);
                }
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** By name, each capture trigger's {@code tgenabled} and comment. */
    private static Map<String, String[]> triggers(Connection connection, String qualifiedTable) throws SQLException {
        Map<String, String[]> found = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(TRIGGERS)) {
            query.setString(1, qualifiedTable);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), new String[] {rows.getString(2), rows.getString(3)});
                }
            }
        }
        return found;
    }

    static String installHint() {
        return "install them with the SQL of GET streams/admin/capture.sql, or let Object Streams install them"
                + " (streams.schema.migrate=true) by redeploying";
    }
}
