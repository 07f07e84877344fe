package io.objectstreams.internal.listener;

import io.objectstreams.internal.config.StreamsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health for the listener (G13). Readiness is DOWN when the listener is not listening or the
 * oldest committed row still without a cursor is older than {@code streams.health.max-backlog-age};
 * liveness is DOWN when the listener thread has died or given up.
 */
@ApplicationScoped
public class ListenerHealth {

    static final String NAME = "object-streams-listener";

    private static final String BACKLOG = "SELECT count(*), coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0)"
            + " FROM streams_outbox WHERE cursor IS NULL";

    @Inject
    OutboxListener listener;

    @Inject
    StreamsConfig config;

    @Produces
    @Readiness
    HealthCheck readiness() {
        return () -> {
            ListenerStatus status = listener.status();
            HealthCheckResponseBuilder response = describe(status);
            boolean up = status.running() && status.listening();
            try {
                Backlog backlog = backlog();
                response.withData("backlogRows", backlog.rows()).withData("oldestBacklogAgeMs", backlog.oldest().toMillis());
                up &= backlog.oldest().compareTo(config.maxBacklogAge()) <= 0;
            } catch (SQLException | RuntimeException e) {
                response.withData("backlogError", String.valueOf(e.getMessage()));
                up = false;
            }
            return response.status(up).build();
        };
    }

    @Produces
    @Liveness
    HealthCheck liveness() {
        return () -> {
            ListenerStatus status = listener.status();
            return describe(status).status(status.running()).build();
        };
    }

    private static HealthCheckResponseBuilder describe(ListenerStatus status) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("role", status.role())
                .withData("listening", status.listening())
                .withData("lastAssignedCursor", status.lastAssignedCursor())
                .withData("lastDeliveredCursor", status.lastDeliveredCursor())
                .withData("lastWakeup", status.lastWakeup() == null ? "never" : status.lastWakeup().toString());
        if (status.lastError() != null) {
            response.withData("lastError", status.lastError());
        }
        return response;
    }

    private record Backlog(long rows, Duration oldest) {
    }

    private Backlog backlog() throws SQLException {
        try (Connection connection = config.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(BACKLOG)) {
            rs.next();
            return new Backlog(rs.getLong(1), Duration.ofMillis((long) (rs.getDouble(2) * 1000)));
        }
    }
}
