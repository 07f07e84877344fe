package io.objectstreams.internal.health;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one mapping from reports to named figures, read by the health checks (all of them) and by the admin status
 * (the ones it shows): a figure has the same name and value in both. Each value is a {@link Long}, a
 * {@link Boolean} or a {@link String}; a figure that is unknown is left out, as both outputs always did.
 */
public final class HealthData {

    public static final String ROLE = "role";
    public static final String LISTENING = "listening";
    public static final String LAST_ASSIGNED_CURSOR = "lastAssignedCursor";
    public static final String LAST_DELIVERED_CURSOR = "lastDeliveredCursor";
    public static final String LAST_WAKEUP = "lastWakeup";
    public static final String BACKLOG_ROWS = "backlogRows";
    public static final String OLDEST_BACKLOG_AGE_MS = "oldestBacklogAgeMs";
    public static final String WATERMARK = "watermark";
    public static final String LAST_PRUNE = "lastPrune";
    public static final String LAST_ERROR = "lastError";
    public static final String BACKLOG_ERROR = "backlogError";

    public static final String SESSIONS = "sessions";
    public static final String WEB_SOCKET_SESSIONS = "webSocketSessions";
    public static final String SSE_SESSIONS = "sseSessions";
    public static final String SUBSCRIPTIONS = "subscriptions";
    public static final String WEB_SOCKET_SUBSCRIPTIONS = "webSocketSubscriptions";
    public static final String SSE_SUBSCRIPTIONS = "sseSubscriptions";
    public static final String QUEUED_MESSAGES = "queuedMessages";
    public static final String QUEUED_BYTES = "queuedBytes";
    public static final String MAX_QUEUED_BYTES = "maxQueuedBytes";
    public static final String DROPPED_EVENTS = "droppedEvents";
    public static final String FAILED_FAN_OUTS = "failedFanOuts";
    public static final String DELIVERED_EVENTS = "deliveredEvents";
    public static final String RESYNCS = "resyncs";
    public static final String TRIGGER_TABLES = "triggerCapturedTables";
    public static final String CAPTURE_PROBLEMS = "captureProblems";
    public static final String CAPTURE_WARNINGS = "captureWarnings";

    /** What the health data says in place of an error's text, which only the admin status shows. */
    public static final String WITHHELD = "failing; the text is in streams/admin/status (streams-admin role)";

    private HealthData() {
    }

    /** Trigger capture's figures: its tables, what keeps any of them from being captured, and what is amiss. */
    public static Map<String, Object> of(CaptureReport report) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(TRIGGER_TABLES, (long) report.tables());
        if (!report.ok()) {
            data.put(CAPTURE_PROBLEMS, String.join("; ", report.problems()));
        }
        if (!report.warnings().isEmpty()) {
            data.put(CAPTURE_WARNINGS, String.join("; ", report.warnings()));
        }
        return Collections.unmodifiableMap(data);
    }

    /** The listener's figures, in the order the health data has always listed them. */
    public static Map<String, Object> of(ListenerReport report) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(ROLE, report.role());
        data.put(LISTENING, report.listening());
        data.put(LAST_ASSIGNED_CURSOR, report.lastAssignedCursor());
        data.put(LAST_DELIVERED_CURSOR, report.lastDeliveredCursor());
        data.put(LAST_WAKEUP, report.lastWakeup() == null ? "never" : report.lastWakeup().toString());
        data.put(BACKLOG_ROWS, report.backlogRows());
        data.put(WATERMARK, report.prunedThrough());
        data.put(LAST_PRUNE, report.lastPrune() == null ? "never" : report.lastPrune().toString());
        if (report.oldestBacklogAge() != null) {
            data.put(OLDEST_BACKLOG_AGE_MS, report.oldestBacklogAge().toMillis());
        }
        // Health data is public: an error's text (SQL, host names, user names) is for the admin status only.
        if (report.lastError() != null) {
            data.put(LAST_ERROR, WITHHELD);
        }
        if (report.backlogError() != null) {
            data.put(BACKLOG_ERROR, WITHHELD);
        }
        return Collections.unmodifiableMap(data);
    }

    /** The listener's error texts, for those allowed to read them (the admin status): name to text, when present. */
    public static Map<String, Object> errors(ListenerReport report) {
        Map<String, Object> errors = new LinkedHashMap<>();
        if (report.lastError() != null) {
            errors.put(LAST_ERROR, report.lastError());
        }
        if (report.backlogError() != null) {
            errors.put(BACKLOG_ERROR, report.backlogError());
        }
        return Collections.unmodifiableMap(errors);
    }

    /** The connections' figures; WebSocket counts are what is not SSE. */
    public static Map<String, Object> of(SessionReport report) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put(SESSIONS, (long) report.sessions());
        data.put(WEB_SOCKET_SESSIONS, (long) report.sessions() - report.sseSessions());
        data.put(SSE_SESSIONS, (long) report.sseSessions());
        data.put(SUBSCRIPTIONS, (long) report.subscriptions());
        data.put(WEB_SOCKET_SUBSCRIPTIONS, (long) report.subscriptions() - report.sseSubscriptions());
        data.put(SSE_SUBSCRIPTIONS, (long) report.sseSubscriptions());
        data.put(QUEUED_MESSAGES, (long) report.queuedMessages());
        data.put(QUEUED_BYTES, report.queuedBytes());
        data.put(MAX_QUEUED_BYTES, report.maxQueuedBytes());
        data.put(DROPPED_EVENTS, report.droppedEvents());
        data.put(FAILED_FAN_OUTS, report.failedFanOuts());
        data.put(DELIVERED_EVENTS, report.deliveredEvents());
        data.put(RESYNCS, report.resyncs());
        return Collections.unmodifiableMap(data);
    }
}
