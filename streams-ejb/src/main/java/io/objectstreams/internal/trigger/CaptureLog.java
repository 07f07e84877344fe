package io.objectstreams.internal.trigger;

import io.objectstreams.internal.health.CaptureReport;
import java.util.logging.Logger;

/**
 * Tells the server log what trigger capture found: a report once while it says the same, SEVERE when some writes
 * are not captured, and a summary when capture starts. Readiness shows every report; the log shows changes.
 */
final class CaptureLog {

    /** Trigger capture's one logger, whichever class logs for it: a logging configuration names it. */
    private static final Logger LOG = Logger.getLogger(TriggerCapture.class.getName());

    private volatile String lastLogged = "";

    /** Logs what {@code now} says, unless the last report logged said the same. */
    void log(CaptureReport now) {
        String said = String.join("; ", now.problems()) + "|" + String.join("; ", now.warnings());
        if (said.equals(lastLogged)) {
            return;
        }
        lastLogged = said;
        if (!now.ok()) {
            LOG.severe("Object Streams trigger capture: writes to some tables are not captured, so their subscribers"
                    + " are not told of them: " + String.join("; ", now.problems()));
        }
        if (!now.warnings().isEmpty()) {
            LOG.warning("Object Streams trigger capture: " + String.join("; ", now.warnings()));
        }
        if (now.ok() && now.warnings().isEmpty()) {
            LOG.info("Object Streams trigger capture: every table is captured as this deployment maps it");
        }
    }

    /** The summary of a start that captures {@code tables} tables by trigger, {@code report} its last check. */
    void started(int tables, CaptureReport report) {
        LOG.info(() -> "Object Streams trigger capture: " + tables + " table(s)"
                + (report.ok() ? ", all captured" : ", not all captured: " + String.join("; ", report.problems()))
                + (report.warnings().isEmpty() ? "" : "; " + String.join("; ", report.warnings())));
    }
}
