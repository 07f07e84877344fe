package io.objectstreams.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code streams.*} configuration key, declared once: its key, default, how its text is read and bounded, a line
 * of documentation, and the deprecated keys it was once called. Reading a value that cannot work throws a
 * {@link io.objectstreams.StreamsException} naming the key (G14). Settings are declared as constants of the record
 * their feature reads ({@code ListenerSettings}, {@code SseSettings}, ...), which builds itself from
 * {@link ConfigValues}.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {

    /** Reads the trimmed, non-blank text of {@code key} within {@code min} and {@code max} (either may be null). */
    @FunctionalInterface
    interface Parser<T> {
        T parse(String key, String text, T min, T max);
    }

    private final String key;
    private final String doc;
    private final T defaultValue;
    private final T min;
    private final T max;
    private final Parser<T> parser;
    private final boolean verbatim;
    private final List<String> deprecatedKeys;

    private Setting(String key, String doc, T defaultValue, T min, T max, Parser<T> parser, boolean verbatim,
                    List<String> deprecatedKeys) {
        this.key = key;
        this.doc = doc;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.parser = parser;
        this.verbatim = verbatim;
        this.deprecatedKeys = List.copyOf(deprecatedKeys);
    }

    private static <T> Setting<T> of(String key, T defaultValue, T min, T max, Parser<T> parser, String doc) {
        return new Setting<>(key, doc, defaultValue, min, max, parser, false, List.of());
    }

    /** Text; {@code null} default: unset unless the feature requires it. */
    public static Setting<String> text(String key, String defaultValue, String doc) {
        return of(key, defaultValue, null, null, (k, text, lo, hi) -> text, doc);
    }

    /** Text taken as given, untrimmed: a password may begin or end with a space. */
    public static Setting<String> secret(String key, String doc) {
        return new Setting<>(key, doc, null, null, null, (k, text, lo, hi) -> text, true, List.of());
    }

    /** A PostgreSQL channel name: a lower-case unquoted identifier of at most 63 bytes. */
    public static Setting<String> channel(String key, String defaultValue, String doc) {
        return of(key, defaultValue, null, null, (k, text, lo, hi) -> ConfigRules.channelName(k, text), doc);
    }

    public static Setting<Boolean> bool(String key, boolean defaultValue, String doc) {
        return of(key, defaultValue, null, null,
                (k, text, lo, hi) -> ConfigRules.bool(k, Optional.of(text), false), doc);
    }

    public static Setting<Integer> integer(String key, int defaultValue, int min, int max, String doc) {
        return of(key, defaultValue, min, max,
                (k, text, lo, hi) -> ConfigRules.integer(k, Optional.of(text), 0, lo, hi), doc);
    }

    /** A whole number that may exceed an {@code int}; {@code null} default: unset. */
    public static Setting<Long> number(String key, Long defaultValue, long min, long max, String doc) {
        return of(key, defaultValue, min, max, (k, text, lo, hi) -> ConfigRules.number(k, Optional.of(text), 0, lo, hi),
                doc);
    }

    /** A size in bytes, with an optional binary unit ({@code 512k}, {@code 64m}). */
    public static Setting<Long> bytes(String key, long defaultValue, long min, long max, String doc) {
        return of(key, defaultValue, min, max, (k, text, lo, hi) -> ConfigRules.bytes(k, Optional.of(text), 0, lo, hi),
                doc);
    }

    /** A positive duration; {@code null} default: unset. */
    public static Setting<Duration> duration(String key, Duration defaultValue, String doc) {
        return of(key, defaultValue, null, null,
                (k, text, lo, hi) -> ConfigRules.duration(k, Optional.of(text), null), doc);
    }

    /** A positive duration from {@code min} to {@code max}, both included. */
    public static Setting<Duration> duration(String key, Duration defaultValue, Duration min, Duration max,
                                             String doc) {
        return of(key, defaultValue, min, max,
                (k, text, lo, hi) -> ConfigRules.duration(k, Optional.of(text), null, lo, hi), doc);
    }

    /** A duration where {@code 0} means never; any other must be at least {@code min}. */
    public static Setting<Duration> durationOrZero(String key, Duration defaultValue, Duration min, String doc) {
        return of(key, defaultValue, min, null,
                (k, text, lo, hi) -> lo == null ? ConfigRules.durationOrZero(k, Optional.of(text), null)
                        : ConfigRules.durationOrZero(k, Optional.of(text), null, lo), doc);
    }

    /** Comma-separated web origins, normalized; {@code *} for any; empty by default. */
    public static Setting<Set<String>> origins(String key, String doc) {
        return of(key, Set.of(), null, null, (k, text, lo, hi) -> ConfigRules.origins(k, text), doc);
    }

    /** A key no longer read: setting it stops deployment with {@code instead}, which says what to set now. */
    public static Setting<Void> removed(String key, String instead, String doc) {
        return of(key, null, null, null, (k, text, lo, hi) -> {
            throw ConfigRules.invalid(k, instead);
        }, doc);
    }

    /** This setting, also read from {@code oldKey} (with a warning) when {@link #key} is not set. */
    public Setting<T> deprecatedKey(String oldKey) {
        List<String> keys = new ArrayList<>(deprecatedKeys);
        keys.add(oldKey);
        return new Setting<>(key, doc, defaultValue, min, max, parser, verbatim, keys);
    }

    /**
     * This setting with its minimum raised to {@code floor}, and its default with it: for a key that must not be
     * below another key's value.
     */
    public Setting<T> atLeast(T floor) {
        return new Setting<>(key, doc, larger(defaultValue, floor), larger(min, floor), max, parser, verbatim,
                deprecatedKeys);
    }

    /** This setting with its maximum lowered to {@code ceiling}, and its default with it. */
    public Setting<T> atMost(T ceiling) {
        return new Setting<>(key, doc, smaller(defaultValue, ceiling), min, smaller(max, ceiling), parser, verbatim,
                deprecatedKeys);
    }

    /** The value {@code text} writes, checked; {@code text} is neither blank nor, unless verbatim, untrimmed. */
    public T parse(String text) {
        return parser.parse(key, text, min, max);
    }

    /** The value {@code text} writes under {@code setKey}, this key or a deprecated one, checked; errors name it. */
    public T parse(String setKey, String text) {
        return parser.parse(setKey, text, min, max);
    }

    public String key() {
        return key;
    }

    /** The deprecated keys that still set this one, oldest last; the docs list them. */
    public List<String> deprecatedKeys() {
        return deprecatedKeys;
    }

    /** The value when the key is not set; {@code null} when the feature treats it as unset or required. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The smallest value accepted (for a duration where 0 means never: the smallest other than 0), or null. */
    public T min() {
        return min;
    }

    /** The largest value accepted, or null. */
    public T max() {
        return max;
    }

    /** One line: what the setting does. */
    public String doc() {
        return doc;
    }

    boolean verbatim() {
        return verbatim;
    }

    @Override
    public String toString() {
        return key;
    }

    @SuppressWarnings("unchecked")
    private static <T> T larger(T a, T b) {
        return a == null ? b : ((Comparable<T>) a).compareTo(b) >= 0 ? a : b;
    }

    @SuppressWarnings("unchecked")
    private static <T> T smaller(T a, T b) {
        return a == null ? b : ((Comparable<T>) a).compareTo(b) <= 0 ? a : b;
    }
}
