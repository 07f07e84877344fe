package io.objectstreams.internal.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The values of declared {@link Setting}s in one deployment's configuration. A blank value counts as unset. A
 * deprecated key still works when its setting's own key is not set, and is named in one WARNING per deployment.
 */
public final class ConfigValues {

    private static final Logger LOG = Logger.getLogger(ConfigValues.class.getName());

    private final Function<String, Optional<String>> source;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private ConfigValues(Function<String, Optional<String>> source) {
        this.source = source;
    }

    public static ConfigValues of(Config config) {
        return new ConfigValues(key -> config.getOptionalValue(key, String.class));
    }

    /** For tests: the keys and values given, nothing else. */
    public static ConfigValues of(Map<String, String> values) {
        return new ConfigValues(key -> Optional.ofNullable(values.get(key)));
    }

    /** The setting's value, or its default (which may be {@code null}) when it is not set. */
    public <T> T get(Setting<T> setting) {
        return find(setting).orElse(setting.defaultValue());
    }

    /** The setting's value when it is set; a value that cannot work throws, naming the key. */
    public <T> Optional<T> find(Setting<T> setting) {
        return text(setting).map(setting::parse);
    }

    /** The value of a setting the feature cannot work without. */
    public String require(Setting<String> setting) {
        return ConfigRules.requireText(setting.key(), find(setting));
    }

    private Optional<String> text(Setting<?> setting) {
        Optional<String> value = read(setting.key(), setting.verbatim());
        for (String old : setting.deprecatedKeys()) {
            Optional<String> oldValue = read(old, setting.verbatim());
            if (oldValue.isPresent() && warned.add(old)) {
                LOG.warning(() -> old + " is deprecated; set " + setting.key() + " instead"
                        + (value.isPresent() ? ". Both are set, and " + setting.key() + " wins" : ""));
            }
            if (value.isEmpty() && oldValue.isPresent()) {
                return oldValue;
            }
        }
        return value;
    }

    private Optional<String> read(String key, boolean verbatim) {
        Optional<String> raw = source.apply(key);
        return verbatim ? raw.filter(v -> !v.isEmpty()) : ConfigRules.present(raw);
    }
}
