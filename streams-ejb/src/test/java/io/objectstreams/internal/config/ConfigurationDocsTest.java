package io.objectstreams.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md and the declared settings name the same keys: every {@link Setting} constant of the
 * packages that declare them, with its deprecated keys, is in the docs, and every {@code streams.*} key the docs
 * name is declared.
 */
class ConfigurationDocsTest {

    private static final Path DOCS = Path.of("../docs/configuration.md");
    private static final List<String> DECLARING_PACKAGES = List.of("io.objectstreams.internal.config", "io.objectstreams.feed");
    private static final Pattern KEY = Pattern.compile("`(streams(?:\\.[a-z0-9-]+)+)`");

    @Test
    void everyDeclaredKeyIsDocumentedAndEveryDocumentedKeyIsDeclared() throws Exception {
        Set<String> declared = declaredKeys();
        Set<String> documented = documentedKeys();
        assertThat(declared).as("declared settings").hasSizeGreaterThan(30);
        assertThat(documented).as("keys declared but missing from " + DOCS).containsAll(declared);
        assertThat(declared).as("keys in " + DOCS + " that no Setting declares").containsAll(documented);
    }

    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        Matcher m = KEY.matcher(Files.readString(DOCS));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** The keys of every static Setting field of a class compiled into the declaring packages. */
    private static Set<String> declaredKeys() throws IOException, URISyntaxException, ReflectiveOperationException {
        Path classes = Path.of(Setting.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> keys = new TreeSet<>();
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
                        keys.add(setting.key());
                        keys.addAll(setting.deprecatedKeys());
                    }
                }
            }
        }
        return keys;
    }
}
