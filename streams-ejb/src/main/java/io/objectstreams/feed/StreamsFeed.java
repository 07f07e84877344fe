package io.objectstreams.feed;

import io.objectstreams.StreamEvent;
import io.objectstreams.internal.capture.ModelLabels;
import io.objectstreams.internal.config.Origins;
import io.objectstreams.internal.config.StreamsConfig;
import io.objectstreams.internal.listener.OutboxListener;
import io.objectstreams.internal.listener.OutboxReader;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
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

    private TransportSettings settings;

    @PostConstruct
    void load() {
        settings = new TransportSettings(config.maxSubscriptions(), config.maxFrameBytes(), config.maxMemberPks(),
                config.maxConnectionBytes(), config.maxServerBytes(), config.maxIdle(), config.senderThreads(),
                config.allowedOrigins(), config.replayLimit(), config.maxConnectionMemberPks(), config.maxConnections(),
                config.maxConnectionsPerPrincipal());
    }

    public TransportSettings settings() {
        return settings;
    }

    /** The highest assigned cursor and the retention watermark, as committed now. */
    public CursorState cursorState() throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            OutboxReader.CursorState state = OutboxReader.cursorState(connection);
            return new CursorState(state.lastCursor(), state.prunedThrough());
        }
    }

    /**
     * One subject's assigned events after {@code after} and up to {@code through}, in cursor order, at most
     * {@code limit}.
     */
    public List<StreamEvent> subjectBetween(String model, String pk, long after, long through, int limit)
            throws SQLException {
        try (Connection connection = config.dataSource().getConnection()) {
            return OutboxReader.readSubjectBetween(connection, model, pk, after, through, limit);
        }
    }

    /**
     * The last cursor this instance handed to its transports; -1 while it does not yet know where its delivery
     * starts (the database has not been reachable since it started), when no subscription may register.
     */
    public long deliveredCursor() {
        return listener.deliveredCursor();
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
