package io.objectstreams.internal.outbox;

import io.objectstreams.StreamsException;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.telemetry.Telemetry;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * Writes a transaction's outbox rows with exactly one statement, whatever their number (G4): the rows travel
 * as one JSON array parameter and PostgreSQL expands it. The connection is the persistence provider's own when it
 * offers one (EclipseLink), otherwise one from the application's JTA datasource; either way the insert commits or
 * rolls back with the business write (G1).
 */
@ApplicationScoped
public class OutboxWriter {

    static final String INSERT = """
            INSERT INTO streams_outbox (model, subject_pk, facet, op, changed_fields, metadata)
            SELECT r.model, r.pk, r.facet, r.op, r.changed_fields, r.metadata
              FROM ROWS FROM (jsonb_to_recordset(?::jsonb)
                     AS (model text, pk text, facet text, op text, changed_fields text[], metadata jsonb))
                   WITH ORDINALITY AS r(model, pk, facet, op, changed_fields, metadata, ord)
             ORDER BY r.ord""";

    /**
     * The same for one row, the most common transaction: its values as parameters cost the database less than
     * expanding a JSON document (the capture-overhead benchmark's outbox insert, 0.066 ms per write as JSON).
     */
    static final String INSERT_ONE = "INSERT INTO streams_outbox"
            + " (model, subject_pk, facet, op, changed_fields, metadata)"
            + " VALUES (?, ?, ?, ?, ?, ?::jsonb)";

    /**
     * This transaction's batch of trigger rows: the setting the first capture trigger of the transaction set
     * (schema V6). It is local to the transaction, so no other transaction's rows, nor rows restored from another
     * cluster, fall in its range; with no trigger row written, it is unset and nothing matches.
     */
    private static final String OWN_BATCH = " WHERE id > nullif(current_setting('streams.batch', true), '')::bigint"
            + " AND id <= nullif(current_setting('streams.batch', true), '')::bigint + 4194304";

    /**
     * Adds metadata to the rows capture triggers wrote in this transaction: their ids are this transaction's batch
     * ({@code TriggerSql}), the base plus 1 to {@code 2^22}, so the update reads them by primary key and nothing else.
     */
    static final String TAG = "UPDATE streams_outbox SET metadata = metadata || ?::jsonb" + OWN_BATCH;

    /**
     * Drops this transaction's trigger rows that report a part of a subject this transaction created or deleted
     * through JPA: the subject's own row says all there is, as the entity listener's coalescing has it.
     */
    static final String DROP_PARTS = "DELETE FROM streams_outbox" + OWN_BATCH
            + " AND facet <> 'object' AND (model, subject_pk) IN (SELECT * FROM unnest(?::text[], ?::text[]))";

    /** A subject: its model and pk. */
    public record Subject(String model, String pk) {
    }

    /** Looked up once: {@code Json.createX} looks the provider up again on every call (three times per row). */
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    StreamsConfig config;

    @Inject
    Telemetry telemetry;

    /**
     * Inserts the rows while the transaction completes (in {@code beforeCompletion}) through a new connection of
     * {@code streams.datasource}, which the server enlists in the transaction (WildFly does). Payara enlists only
     * in the transaction of the current component invocation, which it has let go of by then: what it gives may be
     * outside the transaction ({@link #mayBeOutsideTheTransaction}). Such a connection is refused and the transaction
     * fails rather than commit its rows apart from its data, or lose them (G1); on EclipseLink the rows normally
     * never get here (see {@code EclipseLinkCapture}).
     */
    public void insertAtCompletion(List<OutboxRow> rows) {
        try (Connection connection = config.dataSource().getConnection()) {
            if (mayBeOutsideTheTransaction(connection)) {
                throw new StreamsException(LibraryErrorCode.OUTBOX_WRITE_FAILED,
                        "Could not write " + rows.size() + " outbox row(s): "
                        + config.dataSourceName() + " gives no connection in the transaction while it completes, and"
                        + " the persistence provider wrote nothing in it (on Payara, publish in a transaction where"
                        + " EclipseLink writes, for instance through a native query; docs/capture.md). The transaction"
                        + " is rolled back so no change goes unrecorded");
            }
            insert(rows, connection);
        } catch (SQLException e) {
            throw failed(rows, e);
        }
    }

    /** Inserts the rows through a connection already in the transaction; leaves it open. */
    public void insert(List<OutboxRow> rows, Connection connection) {
        if (rows.size() == 1) {
            insertOne(rows.get(0), connection, rows, telemetry.traceparent());
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, toJson(rows, telemetry.traceparent()));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw failed(rows, e);
        }
    }

    private static void insertOne(OutboxRow row, Connection connection, List<OutboxRow> rows, String traceparent) {
        try (PreparedStatement insert = connection.prepareStatement(INSERT_ONE)) {
            insert.setString(1, row.model());
            insert.setString(2, row.pk());
            insert.setString(3, row.facet());
            insert.setString(4, row.op().wireName());
            Array fields = connection.createArrayOf("text", row.changedFields().toArray());
            insert.setArray(5, fields);
            insert.setString(6, metadata(row.actor(), row.correlationId(), traceparent).build().toString());
            insert.executeUpdate();
            fields.free();
        } catch (SQLException e) {
            throw failed(rows, e);
        }
    }

    /**
     * Completes the rows capture triggers wrote in this transaction: gives them the action's actor and correlation
     * id (when known), and drops those reporting a part of a subject in {@code bornOrGone}, which this transaction
     * created or deleted through JPA.
     */
    public void completeTriggerRows(Connection connection, String actor, String correlationId,
                                    Collection<Subject> bornOrGone) {
        completeTriggerRows(connection, actor, correlationId, telemetry.traceparent(), bornOrGone);
    }

    private static void completeTriggerRows(Connection connection, String actor, String correlationId,
                                            String traceparent, Collection<Subject> bornOrGone) {
        try {
            if (actor != null || correlationId != null || traceparent != null) {
                try (PreparedStatement tag = connection.prepareStatement(TAG)) {
                    tag.setString(1, metadata(actor, correlationId, traceparent).build().toString());
                    tag.executeUpdate();
                }
            }
            if (!bornOrGone.isEmpty()) {
                try (PreparedStatement drop = connection.prepareStatement(DROP_PARTS)) {
                    drop.setArray(1, connection.createArrayOf("text",
                            bornOrGone.stream().map(Subject::model).toArray()));
                    drop.setArray(2, connection.createArrayOf("text", bornOrGone.stream().map(Subject::pk).toArray()));
                    drop.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new StreamsException(LibraryErrorCode.OUTBOX_WRITE_FAILED,
                    "Could not complete the rows capture triggers wrote;"
                    + " the transaction is rolled back: " + e.getMessage(), e);
        }
    }

    /**
     * As {@link #completeTriggerRows}, through a connection of {@code streams.datasource} that the server enlists in
     * the transaction while it completes. Where it gives one that may be outside it (Payara), returns false:
     * EclipseLink's commit hook completes them through its own connection ({@code writeThrough}).
     */
    public boolean completeTriggerRowsAtCompletion(String actor, String correlationId, Collection<Subject> bornOrGone) {
        String traceparent = telemetry.traceparent();
        if (actor == null && correlationId == null && bornOrGone.isEmpty() && traceparent == null) {
            return true; // nothing to add or drop: no connection taken
        }
        try (Connection connection = config.dataSource().getConnection()) {
            if (mayBeOutsideTheTransaction(connection)) {
                return false;
            }
            completeTriggerRows(connection, actor, correlationId, traceparent, bornOrGone);
            return true;
        } catch (SQLException e) {
            throw new StreamsException(LibraryErrorCode.OUTBOX_WRITE_FAILED,
                    "Could not complete the rows capture triggers wrote;"
                    + " the transaction is rolled back: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a connection taken while the transaction completes may not be in it. One that autocommits is not.
     * Neither is any of Payara's JDBC resource adapter ({@code com.sun.gjc}): it enlists only in the transaction of
     * the current component invocation, which it has let go of by then. What it gives then usually autocommits,
     * but not always: once a connection in neither state took the insert, which never committed while the data
     * did (CaptureIT on Payara Micro 7, a full CI run, 2026-12-06), and once one in the transaction took it and
     * committed it with the data. Nothing it gives at completion can be told apart, so none is used.
     */
    static boolean mayBeOutsideTheTransaction(Connection connection) throws SQLException {
        return connection.getAutoCommit() || connection.getClass().getName().startsWith(PAYARA_ADAPTER);
    }

    /** The package of the connections Payara's (and GlassFish's) JDBC resource adapter hands out. */
    static final String PAYARA_ADAPTER = "com.sun.gjc.";

    private static StreamsException failed(List<OutboxRow> rows, SQLException e) {
        return new StreamsException(LibraryErrorCode.OUTBOX_WRITE_FAILED, "Could not write " + rows.size()
                + " outbox row(s); the transaction is rolled back so no change goes unrecorded: " + e.getMessage(), e);
    }

    static String toJson(List<OutboxRow> rows, String traceparent) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        for (OutboxRow row : rows) {
            JsonObjectBuilder metadata = metadata(row.actor(), row.correlationId(), traceparent);
            array.add(JSON.createObjectBuilder()
                    .add("model", row.model())
                    .add("pk", row.pk())
                    .add("facet", row.facet())
                    .add("op", row.op().wireName())
                    .add("changed_fields", JSON.createArrayBuilder(row.changedFields()))
                    .add("metadata", metadata));
        }
        return array.build().toString();
    }

    /** The row's metadata: who acted, under which correlation id, and the writing span ({@code traceparent}). */
    private static JsonObjectBuilder metadata(String actor, String correlationId, String traceparent) {
        JsonObjectBuilder metadata = JSON.createObjectBuilder();
        if (traceparent != null) {
            metadata.add("traceparent", traceparent);
        }
        if (actor != null) {
            metadata.add("actor", actor);
        }
        if (correlationId != null) {
            metadata.add("correlation_id", correlationId);
        }
        return metadata;
    }
}
