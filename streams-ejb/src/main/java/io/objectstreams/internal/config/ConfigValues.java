package io.objectstreams.internal.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * The values of declared {@link Setting}s in one deployment's configuration. A blank value counts as unset. A
 * deprecated key still works, and is named in one WARNING per deployment. When a setting's key and a deprecated one
 * are both set, the value from the configuration source of higher ordinal wins, as it would for one key (an
 * environment variable over {@code microprofile-config.properties}); on a tie, the current key. A bad value is
 * reported under the key that was set.
 */
public final class ConfigValues {

    private static final Logger LOG = Logger.getLogger(ConfigValues.class.getName());

    /** One key's text and the ordinal of the configuration source it came from. */
    private record Read(String key, String text, int ordinal) {
    }

    private final Function<String, Optional<Read>> source;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private ConfigValues(Function<String, Optional<Read>> source) {
        this.source = source;
    }

    public static ConfigValues of(Config config) {
        return new ConfigValues(key -> {
            ConfigValue value = config.getConfigValue(key);
            return Optional.ofNullable(value.getValue()).map(text -> new Read(key, text, value.getSourceOrdinal()));
        });
    }

    /** For tests: the keys and values given, all from one source, nothing else. */
    public static ConfigValues of(Map<String, String> values) {
        return of(Map.of(), values);
    }

    /** For tests: {@code overrides} from a source of higher ordinal than {@code values}, as the environment is. */
    public static ConfigValues of(Map<String, String> overrides, Map<String, String> values) {
        return new ConfigValues(key -> overrides.containsKey(key)
                ? Optional.of(new Read(key, overrides.get(key), 300))
                : Optional.ofNullable(values.get(key)).map(text -> new Read(key, text, 100)));
    }

    /** The setting's value, or its default (which may be {@code null}) when it is not set. */
    public <T> T get(Setting<T> setting) {
        return find(setting).orElse(setting.defaultValue());
    }

    /** The setting's value when it is set; a value that cannot work throws, naming the key it was set under. */
    public <T> Optional<T> find(Setting<T> setting) {
        return read(setting).map(read -> setting.parse(read.key(), read.text()));
    }

    /** The value of a setting the feature cannot work without. */
    public String require(Setting<String> setting) {
        return ConfigRules.requireText(setting.key(), find(setting));
    }

    private Optional<Read> read(Setting<?> setting) {
        Optional<Read> chosen = read(setting.key(), setting.verbatim());
        for (String old : setting.deprecatedKeys()) {
            Optional<Read> oldValue = read(old, setting.verbatim());
            if (oldValue.isEmpty()) {
                continue;
            }
            Optional<Read> before = chosen;
            if (chosen.isEmpty() || oldValue.get().ordinal() > chosen.get().ordinal()) {
                chosen = oldValue;
            }
            if (warned.add(old)) {
                String winner = chosen.get().key();
                LOG.warning(() -> old + " is deprecated; set " + setting.key() + " instead"
                        + (before.isPresent() ? ". Both are set, and " + winner + " wins (the value from the"
                        + " configuration source of higher ordinal; the current key on a tie)" : ""));
            }
        }
        return chosen;
    }

    private Optional<Read> read(String key, boolean verbatim) {
        Optional<Read> raw = source.apply(key);
        if (verbatim) {
            return raw.filter(r -> !r.text().isEmpty());
        }
        return raw.flatMap(r -> ConfigRules.present(Optional.of(r.text()))
                .map(text -> new Read(r.key(), text, r.ordinal())));
    }
}
