package io.objectstreams.internal.health;

import java.util.List;

/**
 * What trigger capture reports: what keeps some table's writes from being captured (a trigger missing, outdated or
 * disabled, a column gone), each naming the table and the fix; none when every trigger-captured table is captured.
 *
 * @param tables   how many tables are captured by trigger
 * @param problems what is wrong, in words an operator can act on
 */
public record CaptureReport(int tables, List<String> problems) {

    public CaptureReport {
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return problems.isEmpty();
    }
}
