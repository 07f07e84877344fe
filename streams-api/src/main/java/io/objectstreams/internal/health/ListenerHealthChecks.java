package io.objectstreams.internal.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.function.Predicate;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health for the listener (G13), both named {@value #NAME}. Readiness is DOWN when the listener is not
 * listening or the oldest committed row without a cursor is older than {@code streams.health.max-backlog-age}, or a
 * table captured by trigger is not (a trigger missing, outdated or disabled: its writes would go unstreamed, G3);
 * liveness is DOWN when the listener or delivery thread has died, or the listener gave up. Both are DOWN while no
 * listener is registered (it is starting, or failed to deploy).
 *
 * <p>A bean of {@code streams-api} although nothing else about it is API: in an EAR that jar sits in {@code lib/},
 * the only place WildFly registers health checks from (WFLY-12835).
 */
@ApplicationScoped
public class ListenerHealthChecks {

    public static final String NAME = "object-streams-listener";

    @Produces
    @Readiness
    HealthCheck readiness() {
        HealthRegistry registry = HealthRegistry.application();
        return check(registry, report -> report.ready()
                && registry.report(HealthRegistry.CAPTURE).map(CaptureReport::ok).orElse(true));
    }

    @Produces
    @Liveness
    HealthCheck liveness() {
        return check(HealthRegistry.application(), ListenerReport::running);
    }

    static HealthCheck check(HealthRegistry registry, Predicate<ListenerReport> up) {
        return () -> registry.report(HealthRegistry.LISTENER)
                .map(report -> describe(registry, report).status(up.test(report)).build())
                .orElseGet(ListenerHealthChecks::absent);
    }

    private static HealthCheckResponse absent() {
        return HealthCheckResponse.named(NAME).down().withData("listener", "not registered").build();
    }

    private static HealthCheckResponseBuilder describe(HealthRegistry registry, ListenerReport report) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
        HealthData.of(report).forEach((name, value) -> with(response, name, value));
        registry.report(HealthRegistry.SESSIONS)
                .ifPresent(sessions -> HealthData.of(sessions).forEach((name, value) -> with(response, name, value)));
        registry.report(HealthRegistry.CAPTURE)
                .ifPresent(capture -> HealthData.of(capture).forEach((name, value) -> with(response, name, value)));
        return response;
    }

    /** Numbers and flags keep their JSON type (on servers that keep it; Payara reports every value as a string). */
    private static void with(HealthCheckResponseBuilder response, String name, Object value) {
        if (value instanceof Long number) {
            response.withData(name, number);
        } else if (value instanceof Boolean flag) {
            response.withData(name, flag);
        } else {
            response.withData(name, String.valueOf(value));
        }
    }
}
