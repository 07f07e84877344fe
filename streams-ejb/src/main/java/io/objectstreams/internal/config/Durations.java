package io.objectstreams.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way Object Streams reads a duration, in configuration and in request parameters alike: a whole number
 * with a unit ({@code 500ms}, {@code 25s}, {@code 2m}, {@code 1h}, {@code 7d}; any case, a space allowed before the
 * unit) or ISO-8601 ({@code PT1S}). A bare {@code 0} is zero. Other bare numbers are seconds only where the reader
 * says so: SSE's {@code heartbeat=90} has always meant seconds, while in configuration {@code 30} could as well mean
 * milliseconds and is refused.
 */
public final class Durations {

    private static final Pattern AMOUNT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private Durations() {
    }

    /** The duration {@code text} writes (it may be zero or negative, in ISO-8601), or empty if it writes none. */
    public static Optional<Duration> parse(String text, boolean bareSeconds) {
        String trimmed = text.trim();
        Matcher m = AMOUNT.matcher(trimmed.toLowerCase(Locale.ROOT));
        try {
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                String unit = m.group(2);
                if (unit == null && amount != 0 && !bareSeconds) {
                    return Optional.empty();
                }
                return Optional.of(switch (unit == null ? "s" : unit) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                });
            }
            return Optional.of(Duration.parse(trimmed));
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException tooLargeOrUnreadable) {
            return Optional.empty();
        }
    }

    /** As configuration writes a duration: {@code 1s}, {@code 5m}, {@code 4h}, else milliseconds. */
    public static String brief(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1_000 == 0 ? millis / 1_000 + "s" : millis + "ms";
    }
}
