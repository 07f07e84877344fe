package io.objectstreams.internal.trigger;

import java.util.ArrayList;
import java.util.List;

/**
 * What one check of the capture triggers found: problems, which keep some writes from being captured (readiness
 * DOWN), and warnings, which do not ({@link io.objectstreams.internal.health.CaptureReport}).
 */
public final class Findings {

    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    void problem(String text) {
        problems.add(text);
    }

    void warning(String text) {
        warnings.add(text);
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
