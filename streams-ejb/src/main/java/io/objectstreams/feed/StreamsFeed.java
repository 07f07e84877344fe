package io.objectstreams.feed;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.capture.ModelLabels;
import io.objectstreams.internal.config.Origins;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.feed.RetentionSettings;
import io.objectstreams.internal.listener.NumberingRollback;
import io.objectstreams.internal.listener.OutboxListener;
import io.objectstreams.internal.listener.OutboxReader;
import io.objectstreams.internal.retention.OutboxRetention;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the transports read, in one place (see the package description). Every database read takes one connection
 * from the application's datasource and returns it before anything else is asked of the pool, so concurrent
 * subscribes never hold one connection while waiting for another.
 */
@ApplicationScoped
public class StreamsFeed {

    @Inject
    StreamsConfig config;

    @Inject
    OutboxListener listener;

    @Inject
    OutboxRetention retention;

    public TransportSettings settings() {
        return config.transport();
    }

    /** The highest assigned cursor and the retention watermark, as committed now. */
    public CursorState cursorState() throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            OutboxReader.CursorState state = OutboxReader.cursorState(connection);
            return new CursorState(state.lastCursor(), state.prunedThrough(), state.prunedAt());
        }
    }

    /** Which transactions have committed now: read after a query, it covers every transaction that query saw. */
    public TransactionSnapshot transactionSnapshot() throws SQLException {
        try (Connection connection = config.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT txid_current_snapshot()::text")) {
            rs.next();
            return TransactionSnapshot.parse(rs.getString(1));
        }
    }

    /**
     * Prunes the outbox now with the given bounds ({@code null} / 0: no such bound), or with a dry run reports
     * what that would delete. A real run waits for nothing: it fails with {@link PruneBusy} while another runs on
     * this instance.
     */
    public PruneOutcome prune(Duration maxAge, long maxRows, boolean dryRun) throws SQLException, PruneBusy {
        try {
            return retention.prune(maxAge, maxRows, dryRun);
        } catch (OutboxRetention.Busy busy) {
            throw new PruneBusy(busy.getMessage());
        }
    }

    /**
     * The SQL that takes this outbox back to numbering one row at a time, for a release older than schema V7: for a
     * DBA to run with every instance stopped (docs/operations.md).
     */
    public String numberingRollbackScript() throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            return NumberingRollback.script(connection);
        }
    }

    /** The configured retention and what this instance's pruning last did. */
    public RetentionStatus retention() {
        RetentionSettings settings = retention.settings();
        return new RetentionStatus(settings.maxAge(), settings.maxRows(), settings.interval(), settings.batchSize(),
                retention.lastRun(), retention.lastOutcome(), retention.lastError());
    }

    /** The shortest age bound retention accepts, configured or asked for by hand. */
    public static final Duration MIN_RETENTION_AGE = RetentionSettings.MIN_MAX_AGE;

    /** A prune asked for while another runs on this instance. */
    public static final class PruneBusy extends Exception {
        private static final long serialVersionUID = 1L;

        PruneBusy(String message) {
            super(message);
        }
    }

    /**
     * Retention as configured, and this instance's last run.
     *
     * @param maxAge      {@code streams.retention.max-age}, or {@code null}
     * @param maxRows     {@code streams.retention.max-rows}, or 0
     * @param interval    {@code streams.retention.interval}
     * @param batchSize   {@code streams.retention.batch-size}
     * @param lastRun     when this instance last ran a real prune, or {@code null}
     * @param lastOutcome what it did, or {@code null}
     * @param lastError   why the last scheduled run failed, or {@code null}
     */
    public record RetentionStatus(Duration maxAge, long maxRows, Duration interval, int batchSize, Instant lastRun,
                                  PruneOutcome lastOutcome, String lastError) {
    }

    /**
     * One subject's assigned events after {@code after} and up to {@code through}, in cursor order, at most
     * {@code limit}, and its model's truncations among them (trigger capture).
     */
    public List<StreamEvent> subjectBetween(String model, String pk, long after, long through, int limit)
            throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            return OutboxReader.readSubjectBetween(connection, model, pk, after, through, limit);
        }
    }

    /**
     * One model's assigned events after {@code after} and up to {@code through}, in cursor order, at most
     * {@code limit}.
     */
    public List<StreamEvent> modelBetween(String model, long after, long through, int limit) throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            return OutboxReader.readModelBetween(connection, model, after, through, limit);
        }
    }

    /**
     * The subjects of {@code model} among {@code pks} ({@code null}: any) deleted after {@code after}. Read it after
     * the membership it corrects: a pk that membership found created again was deleted in a transaction that had
     * committed by then, so this later read sees the delete.
     */
    public LaterDeletes deletedAfter(String model, Collection<String> pks, long after) throws SQLException {
        if (pks != null && pks.isEmpty()) {
            return LaterDeletes.NONE;
        }
        try (Connection connection = config.dataSource().getConnection()) {
            return OutboxReader.readDeletedAfter(connection, model, pks, after);
        }
    }

    /**
     * The rows about {@code pks} of {@code model}, and its truncations, committed after {@code after} (a later cursor,
     * or none yet: cursor 0). Read it after the membership it qualifies: whatever those rows changed, membership may
     * already reflect.
     */
    public List<StreamEvent> rowsAfter(String model, Collection<String> pks, long after) throws SQLException {
        if (pks.isEmpty()) {
            return List.of();
        }
        try (Connection connection = config.dataSource().getConnection()) {
            return OutboxReader.readRowsAfter(connection, model, pks, after);
        }
    }

    /**
     * The last cursor this instance handed to its transports; -1 while it does not yet know where its delivery
     * starts (the database has not been reachable since it started), when no subscription may register.
     */
    public long deliveredCursor() {
        return listener.deliveredCursor();
    }

    /** A duration as configuration writes them ({@code 90s}, {@code 7d}, ...), positive; empty if it is not one. */
    public static Optional<Duration> parseDuration(String text) {
        return StreamsConfig.parseDuration(text);
    }

    /** {@code @Streamed(model)}, else the JPA entity name, else the simple class name. */
    public static String modelLabel(Class<?> entityClass) {
        return ModelLabels.of(entityClass);
    }

    /** The origin as {@code scheme://host:port} in lower case, or empty when it is not an http(s)/ws(s) origin. */
    public static Optional<String> normalizeOrigin(String text) {
        return Origins.normalize(text);
    }
}
