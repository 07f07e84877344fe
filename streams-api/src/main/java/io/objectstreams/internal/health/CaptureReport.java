package io.objectstreams.internal.health;

import java.util.List;

/**
 * What trigger capture reports, each finding naming the table and the fix.
 *
 * <p>A problem keeps some table's writes from being captured (a trigger missing or disabled, a table or column
 * gone) and makes readiness DOWN. A warning does not: the table's writes are captured, but not as this deployment
 * maps them (a trigger installed from another mapping, as while two versions run side by side in a rolling
 * deploy, or a capture trigger on a table the entity listener captures too), or the last check could not run and
 * the one before it stands.
 *
 * @param tables   how many tables are captured by trigger
 * @param problems what keeps writes from being captured, in words an operator can act on
 * @param warnings what is captured other than this deployment maps it, or could not be checked
 */
public record CaptureReport(int tables, List<String> problems, List<String> warnings) {

    public CaptureReport {
        problems = List.copyOf(problems);
        warnings = List.copyOf(warnings);
    }

    public boolean ok() {
        return problems.isEmpty();
    }
}
