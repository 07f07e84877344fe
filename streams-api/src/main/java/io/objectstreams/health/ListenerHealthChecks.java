package io.objectstreams.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health for the listener (G13), both named {@value #NAME}. Readiness is DOWN when the listener
 * is not listening or the oldest committed row without a cursor is older than
 * {@code streams.health.max-backlog-age}; liveness is DOWN when the listener or delivery thread has died, or the listener gave up.
 * Both are DOWN while no listener is registered (it is starting, or failed to deploy).
 */
@ApplicationScoped
public class ListenerHealthChecks {

    public static final String NAME = "object-streams-listener";

    @Produces
    @Readiness
    HealthCheck readiness() {
        return check(ListenerReport::ready);
    }

    @Produces
    @Liveness
    HealthCheck liveness() {
        return check(ListenerReport::running);
    }

    private static HealthCheck check(java.util.function.Predicate<ListenerReport> up) {
        return () -> ListenerProbes.current()
                .map(probe -> {
                    ListenerReport report = probe.report();
                    return describe(report).status(up.test(report)).build();
                })
                .orElseGet(ListenerHealthChecks::absent);
    }

    private static HealthCheckResponse absent() {
        return HealthCheckResponse.named(NAME).down().withData("listener", "not registered").build();
    }

    private static HealthCheckResponseBuilder describe(ListenerReport report) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME)
                .withData("role", report.role())
                .withData("listening", report.listening())
                .withData("lastAssignedCursor", report.lastAssignedCursor())
                .withData("lastDeliveredCursor", report.lastDeliveredCursor())
                .withData("lastWakeup", report.lastWakeup() == null ? "never" : report.lastWakeup().toString())
                .withData("backlogRows", report.backlogRows())
                .withData("watermark", report.prunedThrough())
                .withData("lastPrune", report.lastPrune() == null ? "never" : report.lastPrune().toString());
        if (report.oldestBacklogAge() != null) {
            response.withData("oldestBacklogAgeMs", report.oldestBacklogAge().toMillis());
        }
        ListenerProbes.sessions().ifPresent(sessions -> response
                .withData("sessions", sessions.sessions())
                .withData("webSocketSessions", sessions.sessions() - sessions.sseSessions())
                .withData("sseSessions", sessions.sseSessions())
                .withData("subscriptions", sessions.subscriptions())
                .withData("webSocketSubscriptions", sessions.subscriptions() - sessions.sseSubscriptions())
                .withData("sseSubscriptions", sessions.sseSubscriptions())
                .withData("queuedMessages", sessions.queuedMessages())
                .withData("queuedBytes", sessions.queuedBytes())
                .withData("maxQueuedBytes", sessions.maxQueuedBytes())
                .withData("droppedEvents", sessions.droppedEvents())
                .withData("failedFanOuts", sessions.failedFanOuts())
                .withData("deliveredEvents", sessions.deliveredEvents())
                .withData("resyncs", sessions.resyncs()));
        if (report.lastError() != null) {
            response.withData("lastError", report.lastError());
        }
        if (report.backlogError() != null) {
            response.withData("backlogError", report.backlogError());
        }
        return response;
    }
}
