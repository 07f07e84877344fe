package io.objectstreams.internal.config;

import io.objectstreams.StreamsException;
import io.objectstreams.protocol.LibraryErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Validation of configuration values; every failure names the key and says what would be accepted. */
public final class ConfigRules {

    /**
     * Lower case only: PostgreSQL folds an unquoted identifier in {@code LISTEN} to lower case, while
     * {@code pg_notify} takes the channel verbatim, so a mixed-case name would never meet its listener.
     */
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_$]*");
    private static final int MAX_IDENTIFIER_BYTES = 63;

    private ConfigRules() {
    }

    /** The value trimmed, empty when absent or blank: a blank setting means "use the default". */
    static Optional<String> present(Optional<String> value) {
        return value.map(String::trim).filter(v -> !v.isEmpty());
    }

    static String requireText(String key, Optional<String> value) {
        return present(value).orElseThrow(() -> invalid(key, "is required but not set"));
    }

    static String channelName(String key, String value) {
        String channel = value.trim();
        if (!CHANNEL.matcher(channel).matches()) {
            throw invalid(key, "'" + value + "' is not a valid unquoted PostgreSQL identifier in lower case"
                    + " (letters a-z, digits, _ and $, not starting with a digit)");
        }
        if (channel.getBytes(StandardCharsets.UTF_8).length > MAX_IDENTIFIER_BYTES) {
            throw invalid(key, "'" + value + "' is longer than PostgreSQL's " + MAX_IDENTIFIER_BYTES
                    + "-byte identifier limit");
        }
        return channel;
    }

    /** A comma-separated list of origins, or {@code *}; empty means none besides the application's own. */
    static Set<String> origins(String key, String value) {
        Set<String> origins = new LinkedHashSet<>();
        for (String item : value.split(",")) {
            String origin = item.trim();
            if (origin.isEmpty()) {
                continue;
            }
            if (origin.equals("*")) {
                origins.add("*");
                continue;
            }
            origins.add(Origins.normalize(origin).orElseThrow(() -> invalid(key, "'" + origin
                    + "' is not an origin; write scheme://host[:port], e.g. https://app.example.com, or * for any")));
        }
        return Set.copyOf(origins);
    }

    static boolean bool(String key, Optional<String> value, boolean defaultValue) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        return switch (text.get().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, "'" + value.get() + "' is not true or false");
        };
    }

    /** {@code 500ms}, {@code 1s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT1S}); positive. */
    static Duration duration(String key, Optional<String> value, Duration defaultValue) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        Duration parsed = parseDuration(text.get());
        if (parsed == null || parsed.isNegative() || parsed.isZero()) {
            throw invalid(key, "'" + text.get() + "' is not a positive duration such as 500ms, 1s, 2m, 1h, 7d or PT1S");
        }
        return parsed;
    }

    /** As {@link #duration}, but {@code 0} is allowed too, for "never". */
    static Duration durationOrZero(String key, Optional<String> value, Duration defaultValue) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        Duration parsed = parseDuration(text.get());
        if (parsed == null || parsed.isNegative()) {
            throw invalid(key, "'" + text.get() + "' is not 0 or a positive duration such as 500ms, 1s, 2m, 1h, 7d"
                    + " or PT1S");
        }
        return parsed;
    }

    /** As {@link #durationOrZero}, but a duration other than 0 must be at least {@code min}. */
    static Duration durationOrZero(String key, Optional<String> value, Duration defaultValue,
                                   Duration min) {
        Duration parsed = durationOrZero(key, value, defaultValue);
        if (!parsed.isZero() && parsed.compareTo(min) < 0) {
            throw invalid(key, "'" + value.map(String::trim).orElse("") + "' is shorter than " + min.toMillis()
                    + "ms; use 0 to turn it off");
        }
        return parsed;
    }

    /** As {@link #duration}, but it must lie between {@code min} and {@code max}, both included. */
    static Duration duration(String key, Optional<String> value, Duration defaultValue,
                             Duration min, Duration max) {
        Duration parsed = duration(key, value, defaultValue);
        if (parsed.compareTo(min) < 0 || parsed.compareTo(max) > 0) {
            throw invalid(key, "'" + value.map(String::trim).orElse("") + "' is outside " + Durations.brief(min)
                    + " to " + Durations.brief(max));
        }
        return parsed;
    }

    /** A duration in configuration's grammar, or {@code null}: see {@link Durations}. */
    static Duration parseDuration(String text) {
        return Durations.parse(text, false).orElse(null);
    }

    public static Duration atLeast(String key, Duration value, Duration minimum) {
        if (value.compareTo(minimum) < 0) {
            throw invalid(key, "(" + value + ") must not be shorter than " + minimum);
        }
        return value;
    }

    /** As {@link #integer}, for whole numbers that may exceed an {@code int}. */
    static long number(String key, Optional<String> value, long defaultValue, long min, long max) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            long parsed = Long.parseLong(text.get());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw invalid(key, "'" + text.get() + "' is not a whole number from " + min + " to " + max);
    }

    static int integer(String key, Optional<String> value, int defaultValue, int min, int max) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(text.get());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw invalid(key, "'" + text.get() + "' is not a whole number from " + min + " to " + max);
    }

    private static final Pattern BYTES = Pattern.compile("(\\d+)\\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib)");

    /**
     * A size in bytes: a whole number, optionally with a binary unit ({@code 512k}, {@code 64MiB}, {@code 1g};
     * k, m and g are 1024-based), from {@code min} to {@code max}.
     */
    static long bytes(String key, Optional<String> value, long defaultValue, long min, long max) {
        Optional<String> text = present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        Matcher m = BYTES.matcher(text.get().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            try {
                int shift = switch (m.group(2)) {
                    case "k", "kb", "kib" -> 10;
                    case "m", "mb", "mib" -> 20;
                    case "g", "gb", "gib" -> 30;
                    default -> 0;
                };
                long parsed = Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
                if (parsed >= min && parsed <= max) {
                    return parsed;
                }
            } catch (ArithmeticException | NumberFormatException ignored) {
                // reported below with the accepted range
            }
        }
        throw invalid(key, "'" + text.get() + "' is not a size from " + min + " to " + max
                + " bytes (a whole number of bytes, or with a unit: 512k, 64m, 1g)");
    }

    public static StreamsException invalid(String key, String problem) {
        return new StreamsException(LibraryErrorCode.INVALID_CONFIGURATION,
                "Invalid Object Streams configuration: " + key + " " + problem + ". Fix " + key
                        + " in microprofile-config.properties (or its environment/system property override).");
    }
}
