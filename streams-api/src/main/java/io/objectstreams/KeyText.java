package io.objectstreams;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Keys as text, read back as values of a key expression's type; a text that is no such value is left out. */
final class KeyText {

    private KeyText() {
    }

    static List<Object> parse(Collection<String> texts, Class<?> type) {
        List<Object> values = new ArrayList<>(texts.size());
        for (String text : texts) {
            Object value = parse(text, type);
            // Only a canonical spelling ("7", not "007"): the row's key is compared by its text in memory.
            if (value != null && String.valueOf(value).equals(text)) {
                values.add(value);
            }
        }
        return values;
    }

    private static Object parse(String text, Class<?> type) {
        try {
            if (type == null || type == String.class || type == Object.class) {
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
                return text.equals("true") || text.equals("false") ? Boolean.valueOf(text) : null;
            }
            if (type.isEnum()) {
                for (Object constant : type.getEnumConstants()) {
                    if (constant.toString().equals(text)) {
                        return constant;
                    }
                }
                return null;
            }
            return null;
        } catch (IllegalArgumentException notOfType) {
            return null;
        }
    }
}
