package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md and the declared settings agree: every {@link Setting} constant of the packages that declare
 * them, with its deprecated keys, is in the docs, and every {@code streams.*} key the docs name is declared; and the
 * default each row of the docs' {@code | key | default | meaning |} tables gives is the declared default, read with the
 * setting's own parser (so {@code 10s}, {@code 10 s} and {@code PT10S} are one value, as are {@code 1m} and
 * {@code 1048576} for a size).
 */
class ConfigurationDocsTest {

    private static final Path DOCS = Path.of("../docs/configuration.md");
    private static final List<String> DECLARING_PACKAGES = List.of("io.objectstreams.internal.config", "io.objectstreams.feed");
    private static final Pattern KEY = Pattern.compile("`(streams(?:\\.[a-z0-9-]+)+)`");
    /** A default cell that starts with a value: {@code `30s` (at least three poll intervals)}. */
    private static final Pattern VALUE = Pattern.compile("^`([^`]+)`");
    /** A default cell that says there is none: {@code *(required)*}, {@code *(none)*}, {@code *(unset: any age)*}. */
    private static final Pattern NO_VALUE = Pattern.compile("^\\*\\((required|none|unset)\\b[^)]*\\)\\*$");
    private static final Pattern EMPTY = Pattern.compile("^\\*\\(empty\\b[^)]*\\)\\*$");
    /** The default of a thread count that follows the machine. */
    private static final Pattern PROCESSORS = Pattern.compile("^number of processors(?:, at least (\\d+))?$");

    @Test
    void everyDeclaredKeyIsDocumentedAndEveryDocumentedKeyIsDeclared() throws Exception {
        Set<String> declared = new TreeSet<>();
        for (Declared each : declaredSettings().values()) {
            declared.add(each.setting().key());
            declared.addAll(each.setting().deprecatedKeys());
        }
        Set<String> documented = documentedKeys();
        assertThat(declared).as("declared settings").hasSizeGreaterThan(30);
        assertThat(documented).as("keys declared but missing from " + DOCS).containsAll(declared);
        assertThat(declared).as("keys in " + DOCS + " that no Setting declares").containsAll(documented);
    }

    @Test
    void everyDocumentedDefaultIsTheDeclaredDefault() throws Exception {
        Map<String, Declared> declared = declaredSettings();
        Map<String, String> documented = documentedDefaults();
        List<String> wrong = new ArrayList<>();
        declared.forEach((key, each) -> {
            if (each.removed()) {
                return;
            }
            Setting<?> setting = each.setting();
            String cell = documented.get(key);
            if (cell == null) {
                wrong.add(key + ": no row of a `| key | default | meaning |` table of " + DOCS + " gives its default");
                return;
            }
            String problem = differs(setting, cell);
            if (problem != null) {
                wrong.add(key + ": " + DOCS + " gives the default " + cell + ", the code declares "
                        + describe(setting.defaultValue()) + (problem.isEmpty() ? "" : " (" + problem + ")"));
            }
        });
        assertThat(documented).as("keys with a documented default").hasSizeGreaterThan(30);
        assertThat(wrong).as("documented defaults that differ from the declared ones").isEmpty();
    }

    /** Null when {@code cell} states the declared default; else why not (empty when the values simply differ). */
    static String differs(Setting<?> setting, String cell) {
        Object declared = setting.defaultValue();
        Matcher value = VALUE.matcher(cell);
        Matcher processors = PROCESSORS.matcher(cell.replace("*", ""));
        if (declared == null) {
            return NO_VALUE.matcher(cell).matches() ? null : "";
        }
        if (declared instanceof Collection<?> values && values.isEmpty()) {
            return EMPTY.matcher(cell).matches() ? null : "";
        }
        if (processors.matches()) {
            int floor = processors.group(1) == null ? 1 : Integer.parseInt(processors.group(1));
            return declared.equals(Math.max(floor, Runtime.getRuntime().availableProcessors())) ? null
                    : "on this machine of " + Runtime.getRuntime().availableProcessors() + " processors";
        }
        if (!value.find()) {
            return "";
        }
        // One spelling of a number: 10,000 and 10_000 are 10000; 10 s is 10s.
        String text = value.group(1).replaceAll("(?<=\\d)[,_](?=\\d{3})", "").replaceAll("(?<=\\d)\\s+(?=[A-Za-z])", "");
        Object documented;
        try {
            documented = setting.parse(text);
        } catch (RuntimeException unreadable) {
            return "the documented value is not one the key accepts: " + unreadable.getMessage();
        }
        return declared.equals(documented) ? null : "";
    }

    /** The default cell of each key of the docs' {@code | key | default | meaning |} tables, keyed by key. */
    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> defaults = new TreeMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(DOCS)) {
            if (line.startsWith("| key | default |")) {
                inTable = true;
            } else if (!line.startsWith("|")) {
                inTable = false;
            } else if (inTable && !line.startsWith("| ---")) {
                String[] cells = line.substring(1).split(" \\| ");
                Matcher key = KEY.matcher(cells[0]);
                while (key.find()) {
                    defaults.put(key.group(1), cells[1].strip());
                }
            }
        }
        return defaults;
    }

    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher m = KEY.matcher(Files.readString(DOCS));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** A declared setting; removed when declared as {@code Setting<Void>}, a key no longer read, with no default. */
    private record Declared(Setting<?> setting, boolean removed) {
    }

    /** Every static Setting field of a class compiled into the declaring packages, by key. */
    private static Map<String, Declared> declaredSettings()
            throws IOException, URISyntaxException, ReflectiveOperationException {
        Path classes = Path.of(Setting.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Declared> settings = new TreeMap<>();
        for (String pkg : DECLARING_PACKAGES) {
            List<Path> files;
            try (Stream<Path> list = Files.list(classes.resolve(pkg.replace('.', '/')))) {
                files = list.filter(f -> f.toString().endsWith(".class")).toList();
            }
            for (Path file : files) {
                String name = file.getFileName().toString();
                Class<?> type = Class.forName(pkg + "." + name.substring(0, name.length() - ".class".length()));
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) && field.getType() == Setting.class) {
                        field.setAccessible(true);
                        Setting<?> setting = (Setting<?>) field.get(null);
                        settings.put(setting.key(), new Declared(setting, field.getGenericType()
                                instanceof ParameterizedType p && p.getActualTypeArguments()[0] == Void.class));
                    }
                }
            }
        }
        return settings;
    }

    /** A declared default as the docs would write it. */
    private static String describe(Object value) {
        if (value instanceof Duration duration) {
            return "`" + (duration.isZero() ? "0" : Durations.brief(duration)) + "`";
        }
        if (value instanceof Long bytes && bytes > 0 && bytes % 1024 == 0) {
            String unit = bytes % (1L << 30) == 0 ? bytes / (1L << 30) + "g"
                    : bytes % (1L << 20) == 0 ? bytes / (1L << 20) + "m" : bytes / 1024 + "k";
            return "`" + bytes + "` (" + unit + ")";
        }
        return value == null ? "no default" : "`" + value + "`";
    }
}
