package io.objectstreams;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The one text of a key value, and back: what {@link VisibilityKeys} compares in memory and what
 * {@link KeyedVisibilityPolicy#visibleTo} binds in SQL, so that both decide alike. Keys may be text, whole numbers
 * ({@code Long}, {@code Integer}, {@code Short}, {@code BigInteger}), UUIDs, booleans or enums (by name); a value of
 * any other type has no text, and makes nothing visible, in memory as in SQL.
 */
final class KeyText {

    private KeyText() {
    }

    /** The canonical text of a key value, or {@code null} for {@code null} and for a type keys cannot have. */
    static String text(Object value) {
        if (value instanceof String || value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof BigInteger || value instanceof UUID || value instanceof Boolean) {
            return value.toString();
        }
        return value instanceof Enum<?> constant ? constant.name() : null;
    }

    /** Whether values of {@code type} can be keys. */
    static boolean supports(Class<?> type) {
        return type == String.class || type == Long.class || type == long.class || type == Integer.class
                || type == int.class || type == Short.class || type == short.class || type == BigInteger.class
                || type == UUID.class || type == Boolean.class || type == boolean.class || type.isEnum();
    }

    /** The values of {@code type} whose text is one of {@code texts}; a text that is no such value is left out. */
    static List<Object> parse(Collection<String> texts, Class<?> type) {
        List<Object> values = new ArrayList<>(texts.size());
        for (String text : texts) {
            Object value = parse(text, type);
            // Only a canonical spelling ("7", not "007"): in memory the row's key is compared by its text.
            if (value != null && text.equals(text(value))) {
                values.add(value);
            }
        }
        return values;
    }

    private static Object parse(String text, Class<?> type) {
        try {
            if (type == String.class) {
                return text;
            }
            if (type == Long.class || type == long.class) {
                return Long.valueOf(text);
            }
            if (type == Integer.class || type == int.class) {
                return Integer.valueOf(text);
            }
            if (type == Short.class || type == short.class) {
                return Short.valueOf(text);
            }
            if (type == UUID.class) {
                return UUID.fromString(text);
            }
            if (type == BigInteger.class) {
                return new BigInteger(text);
            }
            if (type == Boolean.class || type == boolean.class) {
                return Boolean.valueOf(text);
            }
            if (type.isEnum()) {
                for (Object constant : type.getEnumConstants()) {
                    if (((Enum<?>) constant).name().equals(text)) {
                        return constant;
                    }
                }
            }
            return null;
        } catch (IllegalArgumentException notOfType) {
            return null;
        }
    }
}
