package io.objectstreams.internal.config;

import io.objectstreams.StreamsException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of configuration values; every failure names the key and says what would be accepted. */
final class ConfigRules {

    /**
     * Lower case only: PostgreSQL folds an unquoted identifier in {@code LISTEN} to lower case, while
     * {@code pg_notify} takes the channel verbatim, so a mixed-case name would never meet its listener.
     */
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_$]*");
    private static final int MAX_IDENTIFIER_BYTES = 63;

    private ConfigRules() {
    }

    static String requireText(String key, Optional<String> value) {
        return StreamsConfig.present(value).orElseThrow(() -> invalid(key, "is required but not set"));
    }

    static String channelName(String key, String value) {
        String channel = value.trim();
        if (!CHANNEL.matcher(channel).matches()) {
            throw invalid(key, "'" + value + "' is not a valid unquoted PostgreSQL identifier in lower case"
                    + " (letters a-z, digits, _ and $, not starting with a digit)");
        }
        if (channel.getBytes(StandardCharsets.UTF_8).length > MAX_IDENTIFIER_BYTES) {
            throw invalid(key, "'" + value + "' is longer than PostgreSQL's " + MAX_IDENTIFIER_BYTES + "-byte identifier limit");
        }
        return channel;
    }

    static boolean bool(String key, Optional<String> value, boolean defaultValue) {
        Optional<String> text = StreamsConfig.present(value);
        if (text.isEmpty()) {
            return defaultValue;
        }
        return switch (text.get().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, "'" + value.get() + "' is not true or false");
        };
    }

    static StreamsException invalid(String key, String problem) {
        return new StreamsException("invalid_configuration",
                "Invalid Object Streams configuration: " + key + " " + problem + ". Fix " + key
                        + " in microprofile-config.properties (or its environment/system property override).");
    }
}
