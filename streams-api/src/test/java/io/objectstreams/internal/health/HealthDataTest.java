package io.objectstreams.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthDataTest {

    static final Instant WAKEUP = Instant.parse("2026-12-02T10:15:30Z");
    static final Instant PRUNE = Instant.parse("2026-12-02T09:00:00Z");

    static ListenerReport listening() {
        return new ListenerReport(true, true, "assigner", 120, 118, WAKEUP, null, 3, Duration.ofMillis(1_500),
                Duration.ofSeconds(30), null, 40, PRUNE);
    }

    @Test
    void aListeningListenerReportsEveryFigureUnderItsHealthName() {
        assertThat(HealthData.of(listening())).containsExactly(
                entry("role", "assigner"),
                entry("listening", true),
                entry("lastAssignedCursor", 120L),
                entry("lastDeliveredCursor", 118L),
                entry("lastWakeup", "2026-12-02T10:15:30Z"),
                entry("backlogRows", 3L),
                entry("watermark", 40L),
                entry("lastPrune", "2026-12-02T09:00:00Z"),
                entry("oldestBacklogAgeMs", 1_500L));
    }

    @Test
    void aListenerNotYetMeasuredSaysWhyAndLeavesOutTheAge() {
        ListenerReport report = new ListenerReport(true, false, "none", 0, 0, null, "connection refused", -1, null,
                Duration.ofSeconds(30), "not measured yet", -1, null);

        Map<String, Object> data = HealthData.of(report);

        assertThat(data).doesNotContainKey("oldestBacklogAgeMs")
                .contains(entry("lastWakeup", "never"), entry("lastPrune", "never"), entry("backlogRows", -1L),
                        entry("watermark", -1L));
    }

    /** Issue 26, item 10: health data is public, so an error's text (SQL, hosts) is for the admin status only. */
    @Test
    void theErrorsTextsAreWithheldFromHealthDataAndGivenToTheAdminStatus() {
        ListenerReport report = new ListenerReport(true, false, "none", 0, 0, null,
                "ERROR: relation \"streams_outbox\" does not exist", -1, null, Duration.ofSeconds(30),
                "not measured yet", -1, null);

        assertThat(HealthData.of(report)).contains(entry("lastError", HealthData.WITHHELD),
                entry("backlogError", HealthData.WITHHELD));
        assertThat(HealthData.of(report).values()).noneMatch(v -> v.toString().contains("streams_outbox"));
        assertThat(HealthData.errors(report)).containsExactly(
                entry("lastError", "ERROR: relation \"streams_outbox\" does not exist"),
                entry("backlogError", "not measured yet"));
    }

    @Test
    void webSocketFiguresAreWhatIsNotSseAndResyncsAreSummedOverReasons() {
        SessionReport report = new SessionReport(10, 4, 25, 7, 6, 2_048, 1_000_000, 2, 1, 500,
                Map.of("slow_consumer", 2L, "delivery_failed", 3L));

        assertThat(HealthData.of(report)).containsExactly(
                entry("sessions", 10L),
                entry("webSocketSessions", 6L),
                entry("sseSessions", 4L),
                entry("subscriptions", 25L),
                entry("webSocketSubscriptions", 18L),
                entry("sseSubscriptions", 7L),
                entry("queuedMessages", 6L),
                entry("queuedBytes", 2_048L),
                entry("maxQueuedBytes", 1_000_000L),
                entry("droppedEvents", 2L),
                entry("failedFanOuts", 1L),
                entry("deliveredEvents", 500L),
                entry("resyncs", 5L));
    }
}
