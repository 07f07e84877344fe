package io.objectstreams.internal.trigger;

import io.objectstreams.StreamsException;
import io.objectstreams.protocol.LibraryErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The SQL that installs one table's capture: one function and four statement-level triggers (insert, update,
 * delete with their transition tables, and truncate), each marked with the hash of that SQL, so that a trigger
 * installed from another mapping (a renamed column, a new attribute, another channel) is told apart from the
 * current one.
 *
 * <p>Per statement, one {@code INSERT ... SELECT} writes the outbox rows: one per subject for a part of another object,
 * one per row otherwise, in the order the database gives. An update joins the old and new rows on the key (one full
 * hash join): a row whose key changed is a delete plus a create, and a row whose compared columns are all unchanged
 * writes nothing. The rows get ids that draw from no sequence of the application's (EclipseLink reads an
 * {@code IDENTITY} id back with {@code lastval()}, which any {@code nextval} moves): negative, from the transaction's
 * batch (schema V6's {@code streams_trigger_batch()}, drawn once per transaction, before an insert draws its own ids,
 * by a {@code BEFORE INSERT} trigger) and a transaction-local count, so they are unique and increase within a
 * transaction, whatever the transaction ids do (a restore into a new cluster starts them again). The assigner numbers
 * rows by their {@code wal_position}, read once per statement after its writes, and by id within it; the ids' order is
 * never used across transactions. A statement that wrote rows notifies the wakeup channel, which PostgreSQL delivers
 * once per transaction, at commit.
 */
public final class TriggerSql {

    /**
     * The trigger names, one per event and the batch's before inserts; each table has its own five. The first four
     * run this table's function, the last schema V6's {@code streams_capture_begin()}.
     */
    static final List<String> TRIGGERS = List.of("streams_capture_insert", "streams_capture_update",
            "streams_capture_delete", "streams_capture_truncate", "streams_capture_begin");

    /**
     * What each of {@link #TRIGGERS} fires on, as {@code pg_trigger.tgtype} encodes it (statement level; insert 4,
     * delete 8, update 16, truncate 32; before 2), and the transition tables it names (old, new; null for none).
     */
    static final List<Integer> KINDS = List.of(4, 16, 8, 32, 2 | 4);
    static final List<String[]> TRANSITIONS = List.of(new String[] {null, "streams_new"},
            new String[] {"streams_old", "streams_new"}, new String[] {"streams_old", null}, new String[] {null, null},
            new String[] {null, null});

    /** How the comment on each trigger begins; the hash follows. */
    static final String MARK = "object-streams capture ";

    /** Rows one transaction may capture through triggers: ids of a transaction are {@code 2^22} apart. */
    static final long MAX_ROWS_PER_TRANSACTION = 1L << 22;

    /** The longest name PostgreSQL keeps (NAMEDATALEN - 1), in bytes: a longer one is cut, silently. */
    private static final int MAX_NAME_BYTES = 63;

    private final TableMapping mapping;
    /** The schema of Object Streams' own objects, as a prefix for their names ("" when the outbox is unqualified). */
    private final String ownSchema;
    private final String body;
    private final String hash;

    /**
     * @param types   each column's data type, as {@code information_schema.columns} names it (only those without an
     *                equality operator matter)
     * @param channel the wakeup channel ({@code streams.notify-channel})
     * @param outbox  the outbox table, schema-qualified: a writer's search path must not choose which table the
     *                trigger writes to
     */
    public TriggerSql(TableMapping mapping, Map<String, String> types, String channel, String outbox) {
        this.mapping = mapping;
        this.ownSchema = outbox.substring(0, outbox.length() - "streams_outbox".length());
        String function = function(mapping, types, channel, outbox, ownSchema);
        if (function.contains("$streams$")) {
            // The body is dollar-quoted: a name or label holding the quote would end it early.
            throw new StreamsException(LibraryErrorCode.CAPTURE_FAILED, "Trigger capture cannot map " + mapping.entity()
                    + ": a name or label of its mapping contains $streams$");
        }
        this.hash = sha256(function).substring(0, 16);
        this.body = function;
    }

    public String hash() {
        return hash;
    }

    /** The body of the table's function, as PostgreSQL keeps it ({@code pg_proc.prosrc}). */
    String body() {
        return body;
    }

    /**
     * The function's name, schema-qualified like its table. A table's name too long to fit is cut and followed by a
     * hash of the whole, so that two long names sharing a beginning never share a function.
     */
    String functionName() {
        String name = "streams_capture_" + mapping.table();
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            String suffix = "_" + sha256(mapping.table()).substring(0, 12);
            StringBuilder cut = new StringBuilder();
            for (int i = 0; i < name.length(); ) {
                int point = name.codePointAt(i);
                String next = new String(Character.toChars(point));
                if ((cut + next + suffix).getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                    break;
                }
                cut.append(next);
                i += Character.charCount(point);
            }
            name = cut + suffix;
        }
        return mapping.schema() == null ? Sql.identifier(name)
                : Sql.identifier(mapping.schema()) + "." + Sql.identifier(name);
    }

    /** Every statement that installs (or replaces) this table's capture, in order; for a script or one transaction. */
    public List<String> install() {
        List<String> statements = new ArrayList<>();
        statements.add("CREATE OR REPLACE FUNCTION " + functionName()
                + "() RETURNS trigger LANGUAGE plpgsql AS $streams$\n" + body + "$streams$");
        statements.addAll(installOn(mapping.qualifiedTable()));
        return statements;
    }

    /**
     * The triggers that capture writes naming {@code table}: this table, or one of its partitions or inheritance
     * children, whose statements fire only their own triggers. A descendant's run this table's function, which
     * reads the columns it shares with this table.
     */
    public List<String> installOn(String table) {
        List<String> statements = new ArrayList<>();
        String[] clauses = {"AFTER INSERT ON " + table + " REFERENCING NEW TABLE AS streams_new",
                "AFTER UPDATE ON " + table + " REFERENCING OLD TABLE AS streams_old NEW TABLE AS streams_new",
                "AFTER DELETE ON " + table + " REFERENCING OLD TABLE AS streams_old",
                "AFTER TRUNCATE ON " + table, "BEFORE INSERT ON " + table};
        String[] functions = {functionName(), functionName(), functionName(), functionName(),
                ownSchema + "streams_capture_begin"};
        for (int i = 0; i < TRIGGERS.size(); i++) {
            String trigger = Sql.identifier(TRIGGERS.get(i));
            statements.add("DROP TRIGGER IF EXISTS " + trigger + " ON " + table);
            statements.add("CREATE TRIGGER " + trigger + " " + clauses[i] + " FOR EACH STATEMENT EXECUTE FUNCTION "
                    + functions[i] + "()");
            statements.add("COMMENT ON TRIGGER " + trigger + " ON " + table + " IS " + Sql.literal(MARK + hash));
        }
        return statements;
    }

    /** Every statement that removes this table's capture. */
    public List<String> uninstall() {
        List<String> statements = new ArrayList<>();
        for (String trigger : TRIGGERS) {
            statements.add("DROP TRIGGER IF EXISTS " + Sql.identifier(trigger) + " ON " + mapping.qualifiedTable());
        }
        statements.add("DROP FUNCTION IF EXISTS " + functionName() + "()");
        return statements;
    }

    private static String function(TableMapping m, Map<String, String> types, String channel, String outbox,
                                   String ownSchema) {
        String insert = outboxInsert(m, outbox);
        String inserted = inserted(m);
        String updated = updated(m, types);
        String deleted = deleted(m);
        return "-- Object Streams trigger capture of " + oneLine(m.entity()) + " (model " + oneLine(m.model())
                + ", facet " + oneLine(m.facet()) + ")\n"
                + declarations(ownSchema)
                + "BEGIN\n"
                + "  IF TG_OP = 'INSERT' THEN\n    " + insert + inserted + ") c;\n"
                + "  ELSIF TG_OP = 'UPDATE' THEN\n    " + insert + updated + ") c;\n"
                + "  ELSIF TG_OP = 'DELETE' THEN\n    " + insert + deleted + ") c;\n"
                + "  ELSE\n    " + insert + "SELECT '' AS pk, 'truncated' AS op, '{}'::text[] AS fields) c;\n"
                + "  END IF;\n"
                + counted(channel)
                + "  RETURN NULL;\n"
                + "END\n";
    }

    /** The head of every statement's write: the outbox rows from the changes its subquery {@code c} selects. */
    private static String outboxInsert(TableMapping m, String outbox) {
        return "INSERT INTO " + outbox + " (id, wal_position, model, subject_pk, facet, op, changed_fields)"
                + " OVERRIDING SYSTEM VALUE\n      SELECT base + used + row_number() OVER (), written, "
                + Sql.literal(m.model()) + ", c.pk, " + Sql.literal(m.facet()) + ", c.op, c.fields FROM (";
    }

    /** What an insert reports: a create per new row, or for a part, an update of each subject's facet. */
    private static String inserted(TableMapping m) {
        if (m.part()) {
            return parts(facetFields(m), "SELECT " + subjectPk(m, "n") + " FROM streams_new n");
        }
        return "SELECT " + subjectPk(m, "n") + " AS pk, 'created' AS op, '{}'::text[] AS fields"
                + " FROM streams_new n";
    }

    /**
     * What an update reports: an update per row whose compared columns changed, naming their attributes, and a delete
     * and a create per row whose key changed; for a part, an update of the facet of each subject on either side.
     */
    private static String updated(TableMapping m, Map<String, String> types) {
        String onKey = joinOnKey(m);
        // One hash join of the old rows and the new ones on the key: a row on one side only changed its key.
        String pairs = " FROM streams_old o FULL JOIN streams_new n ON " + onKey;
        String noOld = "o." + Sql.identifier(m.keyColumns().get(0)) + " IS NULL";
        String noNew = "n." + Sql.identifier(m.keyColumns().get(0)) + " IS NULL";
        if (m.part()) {
            String subjectOld = subjectPk(m, "o");
            String subjectNew = subjectPk(m, "n");
            String changed = ColumnComparisons.rowOf(m.columns(), "o", types) + " IS DISTINCT FROM "
                    + ColumnComparisons.rowOf(m.columns(), "n", types);
            return parts(facetFields(m), "SELECT s.pk" + pairs + " CROSS JOIN LATERAL (VALUES (" + subjectOld
                    + "), (" + subjectNew + ")) s(pk) WHERE " + noOld + " OR " + noNew + " OR " + changed);
        }
        return "SELECT * FROM (SELECT CASE WHEN " + noNew + " THEN " + subjectPk(m, "o") + " ELSE "
                + subjectPk(m, "n") + " END AS pk, CASE WHEN " + noOld + " THEN 'created' WHEN " + noNew
                + " THEN 'deleted' ELSE 'updated' END AS op, CASE WHEN " + noOld + " OR " + noNew
                + " THEN '{}'::text[] ELSE " + ColumnComparisons.changedFields(m, types) + " END AS fields" + pairs
                + ") u WHERE u.op <> 'updated' OR cardinality(u.fields) > 0";
    }

    /** What a delete reports: a delete per old row, or for a part, an update of each subject's facet. */
    private static String deleted(TableMapping m) {
        if (m.part()) {
            return parts(facetFields(m), "SELECT " + subjectPk(m, "o") + " FROM streams_old o");
        }
        return "SELECT " + subjectPk(m, "o") + " AS pk, 'deleted' AS op, '{}'::text[] AS fields"
                + " FROM streams_old o";
    }

    /** A part's {@code changed_fields}: the facet it makes up of its subject. */
    private static String facetFields(TableMapping m) {
        return "ARRAY[" + Sql.literal(m.facet()) + "]::text[]";
    }

    /** The function's variables: the transaction's count of captured rows, its batch, the log's position. */
    private static String declarations(String ownSchema) {
        return "DECLARE\n"
                // Any session may set the counter: a value below 0 would reach into an earlier transaction's ids.
                + "  used bigint := greatest(0, coalesce(nullif(current_setting('streams.captured', true), ''),"
                + " '0')::bigint);\n"
                // This transaction's batch, drawn at its first captured statement (schema V6).
                + "  base bigint := " + ownSchema + "streams_trigger_batch();\n"
                // After the statement's own writes: the cursor assigner numbers rows in this order (schema V4).
                + "  written bigint := (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint;\n"
                + "  added bigint;\n";
    }

    /** After a statement that wrote rows: the transaction's count raised within its limit, the wakeup notified. */
    private static String counted(String channel) {
        return "  GET DIAGNOSTICS added = ROW_COUNT;\n"
                + "  IF added > 0 THEN\n"
                + "    IF used + added > " + MAX_ROWS_PER_TRANSACTION + " THEN\n"
                + "      RAISE EXCEPTION 'Object Streams: one transaction may capture at most "
                + MAX_ROWS_PER_TRANSACTION + " rows through triggers; split it'"
                + " USING ERRCODE = 'program_limit_exceeded';\n"
                + "    END IF;\n"
                + "    PERFORM set_config('streams.captured', (used + added)::text, true);\n"
                + "    PERFORM pg_notify(" + Sql.literal(channel) + ", '');\n"
                + "  END IF;\n";
    }

    /** A name for the body's first line, a comment: PostgreSQL ends a comment at a carriage return too. */
    private static String oneLine(String name) {
        return name.replaceAll("[\\r\\n]", " ");
    }

    /** One row per distinct subject, reported as an update of the facet. */
    private static String parts(String fields, String subjects) {
        return "SELECT DISTINCT s.pk, 'updated' AS op, " + fields + " AS fields FROM (" + subjects
                + ") s(pk) WHERE s.pk IS NOT NULL";
    }

    /** The subject's key as text: its one column, or a JSON array of its columns in declared order. */
    static String subjectPk(TableMapping m, String alias) {
        List<String> columns = m.subjectColumns();
        if (columns.size() == 1) {
            return alias + "." + Sql.identifier(columns.get(0)) + "::text";
        }
        List<String> values = columns.stream().map(c -> alias + "." + Sql.identifier(c)).toList();
        // A part whose reference is null on any column reports on no subject.
        return "CASE WHEN " + String.join(" IS NULL OR ", values) + " IS NULL THEN NULL ELSE jsonb_build_array("
                + String.join(", ", values) + ")::text END";
    }

    private static String joinOnKey(TableMapping m) {
        return String.join(" AND ", m.keyColumns().stream()
                .map(c -> "o." + Sql.identifier(c) + " = n." + Sql.identifier(c)).toList());
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
