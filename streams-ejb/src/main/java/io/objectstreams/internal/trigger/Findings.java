package io.objectstreams.internal.trigger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one check of the capture triggers found: problems, which keep some writes from being captured (readiness
 * DOWN), and warnings, which do not ({@link io.objectstreams.internal.health.CaptureReport}).
 */
public final class Findings {

    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    /** Triggers installed from another mapping, by table and trigger: warnings until they have lasted too long. */
    private final Map<String, String> outdated = new LinkedHashMap<>();
    /** Partitions and inheritance children with no capture trigger at all: new ones, which the check may install. */
    private final List<String> bare = new ArrayList<>();
    private final List<String> paddedKeys = new ArrayList<>();

    void problem(String text) {
        problems.add(text);
    }

    void warning(String text) {
        warnings.add(text);
    }

    void outdated(String trigger, String text) {
        outdated.put(trigger, text);
    }

    /** A key in a {@code character(n)} column: a problem, and a refusal at deployment. */
    void paddedKey(String text) {
        problems.add(text);
        paddedKeys.add(text);
    }

    /** The keys in {@code character(n)} columns found ({@link TriggerCatalog#paddedKeys}). */
    public List<String> paddedKeys() {
        return List.copyOf(paddedKeys);
    }

    void bare(String table) {
        bare.add(table);
    }

    /** Partitions and inheritance children of captured tables that carry no capture trigger yet. */
    public List<String> bare() {
        return List.copyOf(bare);
    }

    /** The triggers installed from another mapping, by table and trigger name, each with its finding. */
    public Map<String, String> outdated() {
        return Collections.unmodifiableMap(outdated);
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
