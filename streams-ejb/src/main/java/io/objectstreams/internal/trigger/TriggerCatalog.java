package io.objectstreams.internal.trigger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * What the database holds of trigger capture, against what the mappings ask: the captured tables and their
 * columns, and on each the four capture triggers, enabled and marked with the current mapping's hash. Every
 * difference is a finding in words an operator can act on, naming the table and the fix ({@link Findings}); a
 * table the entity listener captures should carry no capture trigger, or its writes are captured twice.
 */
public final class TriggerCatalog {

    /**
     * The columns of the table the name resolves to (through the search path when unqualified, as the writers'
     * statements resolve it), each with how its values compare: the type's name (a domain's base type), or
     * {@code composite}, or {@code array of} the element's.
     */
    private static final String COLUMNS = "SELECT a.attname, CASE WHEN coll.collisdeterministic IS FALSE"
            + " THEN 'nondeterministic' WHEN b.typtype = 'c' THEN 'composite'"
            + " WHEN b.typcategory = 'A' THEN 'array of ' || CASE WHEN e.typtype = 'c' THEN 'composite'"
            + " ELSE e.typname END"
            + " ELSE b.typname END"
            + " FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
            + " JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END"
            + " LEFT JOIN pg_type e ON e.oid = b.typelem LEFT JOIN pg_collation coll ON coll.oid = a.attcollation"
            + " WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";

    private static final String TRIGGERS = "SELECT t.tgname, t.tgenabled, obj_description(t.oid, 'pg_trigger'),"
            + " t.tgtype::text, t.tgoldtable, t.tgnewtable, p.proname, p.prosrc"
            + " FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.tgrelid = to_regclass(?)"
            + " AND NOT t.tgisinternal AND t.tgname LIKE 'streams\\_capture\\_%'";

    private static final Logger LOG = Logger.getLogger(TriggerCatalog.class.getName());

    /** Fixed: Object Streams' lock for installing triggers, beside the migration's. */
    private static final long INSTALL_LOCK = 0x0b5e_c7_5e_0002L;

    private TriggerCatalog() {
    }

    /**
     * The outbox's schema: where this connection finds it, else where the migration creates it (the current
     * schema). Not only the first: at deployment with an XA datasource the migration may not be committed yet where
     * the triggers are installed, and a name that depended on it would differ from the next check's.
     */
    private static final String OUTBOX = "SELECT quote_ident(coalesce((SELECT n.nspname FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass('streams_outbox')),"
            + " current_schema())) || '.streams_outbox'";

    /**
     * The outbox, schema-qualified: the table the triggers write to whatever a writer's search path holds.
     */
    public static String outbox(Connection connection) throws SQLException {
        try (Statement query = connection.createStatement(); ResultSet row = query.executeQuery(OUTBOX)) {
            String outbox = row.next() ? row.getString(1) : null;
            return outbox != null ? outbox : "streams_outbox"; // no schema on the search path: none to qualify with
        }
    }

    /** The columns of a mapping's table and how each compares ({@link #COLUMNS}); empty when it does not exist. */
    public static Map<String, String> columnTypes(Connection connection, TableMapping mapping) throws SQLException {
        Map<String, String> types = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(COLUMNS)) {
            query.setString(1, mapping.qualifiedTable());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    types.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return types;
    }

    /**
     * A problem for each column holding the pk of {@code mapping}'s events that is {@code character(n)}: JDBC and so
     * the entity listener and the members a subscription reads spell its values with their padding, a trigger's
     * {@code ::text} without, and an entity created in this transaction as the application set it. Events and
     * subscriptions would name one object apart. {@code types} are the table's columns ({@link #columnTypes}).
     */
    public static void paddedKeys(TableMapping mapping, Map<String, String> types, Findings findings) {
        for (String column : mapping.subjectColumns()) {
            if ("bpchar".equals(types.get(column))) {
                findings.paddedKey("column " + column + " of table " + mapping.qualifiedTable() + " holds the key of "
                        + (mapping.part() ? "the subject of " : "") + mapping.entity() + " and is character(n), whose"
                        + " values are spelled with their padding by one capture path and without by another; make it"
                        + " varchar or text (docs/capture.md, \"Limits\")");
            }
        }
    }

    /**
     * What stands between the table and capture by {@code sql}: a problem when some writes would not be captured (a
     * trigger missing or disabled, a table or column gone), a warning when they are captured by a trigger installed
     * from another mapping. Nothing when its four triggers are installed, enabled and current, on the table and on each
     * of its partitions and inheritance children.
     * {@code types} are the table's columns ({@link #columnTypes}).
     */
    public static void check(Connection connection, TableMapping mapping, Map<String, String> types, TriggerSql sql,
                             Findings findings) throws SQLException {
        String table = mapping.qualifiedTable();
        if (types.isEmpty()) {
            findings.problem("table " + table + " of " + mapping.entity() + " does not exist");
            return;
        }
        List<String> missing = mapping.columns().stream().filter(c -> !types.containsKey(c)).toList();
        if (!missing.isEmpty()) {
            findings.problem("table " + table + " has no column " + String.join(", ", missing) + " that "
                    + mapping.entity() + " maps; fix the table or the mapping (a provider naming strategy needs @Column"
                    + " names), then reinstall its capture triggers");
            return;
        }
        checkTriggers(connection, table, mapping, sql, findings);
        for (String foreign : Descendants.foreign(connection, table)) {
            findings.problem("table " + foreign + ", a foreign table below " + table
                    + ", cannot carry capture triggers:"
                    + " writes naming it are not captured; detach it, or publish its changes (StreamsPublisher)");
        }
        for (String descendant : Descendants.of(connection, table)) {
            if (triggers(connection, descendant).isEmpty()) {
                findings.bare(descendant);
                findings.problem("table " + descendant + ", a partition or inheritance child of " + table + ", has no"
                        + " capture triggers: writes naming it are not captured; " + installHint());
            } else {
                checkTriggers(connection, descendant, mapping, sql, findings);
            }
        }
    }

    /**
     * The five capture triggers of {@code table} (the mapping's own, or a descendant of it): there, enabled, current.
     */
    private static void checkTriggers(Connection connection, String table, TableMapping mapping, TriggerSql sql,
                                      Findings findings) throws SQLException {
        Map<String, String[]> found = triggers(connection, table);
        for (String trigger : TriggerSql.TRIGGERS) {
            String[] state = found.get(trigger);
            if (state == null) {
                findings.problem("table " + table + " has no trigger " + trigger + ": its writes are not captured; "
                        + installHint());
            } else if ("D".equals(state[0]) || "R".equals(state[0])) {
                // 'R' fires only in sessions with session_replication_role = replica: never for the application.
                findings.problem("trigger " + trigger + " on " + table + " is disabled (ALTER TABLE ... "
                        + ("D".equals(state[0]) ? "DISABLE" : "ENABLE REPLICA") + " TRIGGER): its writes are not"
                        + " captured; ALTER TABLE " + table + " ENABLE TRIGGER " + trigger);
            } else if (!(TriggerSql.MARK + sql.hash()).equals(state[1])) {
                findings.outdated(table + " " + trigger, "trigger " + trigger + " on " + table
                        + " was installed for another mapping of "
                        + mapping.entity() + " (" + state[1] + ", this deployment's is " + sql.hash() + "): writes are"
                        + " captured as that mapping says, as while two versions run side by side; once only this"
                        + " one runs, " + installHint());
            } else {
                checkKind(table, trigger, state, sql, findings);
            }
        }
    }

    /**
     * A trigger whose comment says it is current must also be what the comment says: the events it fires on, its
     * transition tables, and the function it runs with that function's body. A comment proves nothing on its own.
     */
    private static void checkKind(String table, String trigger, String[] state, TriggerSql sql, Findings findings) {
        int index = TriggerSql.TRIGGERS.indexOf(trigger);
        String[] transitions = TriggerSql.TRANSITIONS.get(index);
        boolean begin = index == TriggerSql.TRIGGERS.size() - 1;
        if (Integer.parseInt(state[2]) != TriggerSql.KINDS.get(index) || !Objects.equals(transitions[0], state[3])
                || !Objects.equals(transitions[1], state[4])) {
            findings.problem("trigger " + trigger + " on " + table + " fires on other events or with other transition"
                    + " tables than Object Streams installs: its writes may not be captured; " + installHint());
        } else if (begin ? !"streams_capture_begin".equals(state[5]) : !("\n" + sql.body()).equals(state[6])) {
            findings.problem("trigger " + trigger + " on " + table + " runs a function (" + state[5] + ") that is not"
                    + " the one Object Streams installs for this mapping: its writes may not be captured; "
                    + installHint());
        }
    }

    /** The capture triggers found on a table the entity listener captures: each would capture its writes again. */
    public static void strays(Connection connection, String entity, String qualifiedTable, Findings findings)
            throws SQLException {
        for (String trigger : triggers(connection, qualifiedTable).keySet()) {
            findings.warning("table " + qualifiedTable + " carries capture trigger " + trigger + ", but " + entity
                    + " is captured by the entity listener here: its writes are captured twice. Drop the trigger, or"
                    + " capture it by trigger (@Streamed(capture = TRIGGER) or streams.capture.<entity>=trigger)");
        }
    }

    /**
     * Installs one table's capture in its own transaction, holding Object Streams' install lock, unless the
     * table, checked again under that lock, already has it (another instance has just installed it). Waits at most
     * {@code lockTimeout} for each lock: a long transaction on the table fails only this table's install.
     * Returns whether it installed.
     */
    public static boolean install(Connection connection, TableMapping mapping, TriggerSql sql, Duration lockTimeout)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET LOCAL lock_timeout = " + Math.max(1, lockTimeout.toMillis()));
            statement.execute("SELECT pg_advisory_xact_lock(" + INSTALL_LOCK + ")");
            Findings now = new Findings();
            check(connection, mapping, columnTypes(connection, mapping), sql, now);
            MappingRegistry.seen(connection, mapping.qualifiedTable(), sql.hash());
            String installed = installedHash(connection, mapping.qualifiedTable());
            boolean newerRuns = installed != null && !installed.equals(sql.hash())
                    && MappingRegistry.newerRunning(connection, mapping.qualifiedTable(), sql.hash(), installed);
            if (now.problems().isEmpty() && now.outdated().isEmpty() || newerRuns) {
                if (newerRuns) {
                    LOG.warning(() -> "Object Streams leaves the capture triggers of " + mapping.qualifiedTable()
                            + " as a newer mapping installed them (" + installed + ", this deployment's " + sql.hash()
                            + " is older) while an instance running it runs;"
                            + " once none does, this one installs its own");
                }
                connection.commit(); // what was seen is kept
                return false;
            }
            for (String step : sql.install()) {
                statement.execute(step);
            }
            for (String descendant : Descendants.of(connection, mapping.qualifiedTable())) {
                for (String step : sql.installOn(descendant)) {
                    statement.execute(step);
                }
            }
            connection.commit();
            return true;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** Records that an instance running {@code sql}'s mapping runs, for {@code window} from now. */
    public static void running(Connection connection, TableMapping mapping, TriggerSql sql, Duration window)
            throws SQLException {
        MappingRegistry.running(connection, mapping.qualifiedTable(), sql.hash(), window);
    }

    /** The mapping hash the table's insert trigger was installed with, from its comment; null without one. */
    private static String installedHash(Connection connection, String table) throws SQLException {
        String[] insert = triggers(connection, table).get(TriggerSql.TRIGGERS.get(0));
        String comment = insert == null ? null : insert[1];
        return comment != null && comment.startsWith(TriggerSql.MARK) ? comment.substring(TriggerSql.MARK.length())
                : null;
    }

    /** By name, each capture trigger's {@code tgenabled} and comment. */
    private static Map<String, String[]> triggers(Connection connection, String qualifiedTable) throws SQLException {
        Map<String, String[]> found = new LinkedHashMap<>();
        try (PreparedStatement query = connection.prepareStatement(TRIGGERS)) {
            query.setString(1, qualifiedTable);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), new String[] {rows.getString(2), rows.getString(3), rows.getString(4),
                            rows.getString(5), rows.getString(6), rows.getString(7), rows.getString(8)});
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
