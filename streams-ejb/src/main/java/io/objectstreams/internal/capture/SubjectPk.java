package io.objectstreams.internal.capture;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A subject's pk as text, the one form outbox rows, the protocol and every capture path use. A single key is its
 * value as text. A composite key is a JSON array of its columns' values in declared order, spelled exactly as
 * PostgreSQL's {@code jsonb} prints {@code jsonb_build_array(...)}: {@code ["eu", 7]}, one space after each comma.
 * A capture trigger writes it so; the entity listener writes the same; the delivery engine reads it back.
 *
 * <p>A composite key's columns may be text, whole numbers, booleans, UUIDs or dates, whose {@code jsonb} spelling
 * the JVM can reproduce; any other is refused when the entity is mapped.
 */
public final class SubjectPk {

    private static final JsonProvider JSON = JsonProvider.provider();

    private static final Set<Class<?>> COMPONENTS = Set.of(String.class, Long.class, long.class, Integer.class,
            int.class, Short.class, short.class, BigInteger.class, Boolean.class, boolean.class, UUID.class,
            LocalDate.class);

    private SubjectPk() {
    }

    /** Whether a composite key's column may have this Java type. */
    public static boolean supports(Class<?> type) {
        return COMPONENTS.contains(type);
    }

    /** The pk of a composite key's values, in declared order. */
    public static String of(Object[] values) {
        StringBuilder pk = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                pk.append(", ");
            }
            Object value = values[i];
            if (value == null) {
                pk.append("null");
            } else if (value instanceof Number || value instanceof Boolean) {
                pk.append(value);
            } else {
                quote(value.toString(), pk);
            }
        }
        return pk.append(']').toString();
    }

    /** A key's value read from a single-key pk, or {@code null} when the pk cannot be one of this type. */
    public static Object parse(String pk, Class<?> type) {
        try {
            if (type == Long.class || type == long.class) {
                return Long.valueOf(pk);
            }
            if (type == Integer.class || type == int.class) {
                return Integer.valueOf(pk);
            }
            if (type == Short.class || type == short.class) {
                return Short.valueOf(pk);
            }
            if (type == BigInteger.class) {
                return new BigInteger(pk);
            }
            if (type == UUID.class) {
                return UUID.fromString(pk);
            }
            if (type == LocalDate.class) {
                return LocalDate.parse(pk);
            }
            if (type == Boolean.class || type == boolean.class) {
                return "true".equals(pk) ? Boolean.TRUE : "false".equals(pk) ? Boolean.FALSE : null;
            }
            return type == String.class ? pk : null;
        } catch (IllegalArgumentException | DateTimeParseException notAKey) {
            return null;
        }
    }

    /**
     * A composite key's values read from its pk, one per type, or {@code null} when the pk is not such an array: a
     * pk that cannot be a key names nothing.
     */
    public static Object[] parse(String pk, List<Class<?>> types) {
        JsonArray array;
        try {
            JsonValue value = JSON.createReader(new StringReader(pk)).readValue();
            if (value.getValueType() != JsonValue.ValueType.ARRAY) {
                return null;
            }
            array = value.asJsonArray();
        } catch (JsonException | IllegalStateException notJson) {
            return null;
        }
        if (array.size() != types.size()) {
            return null;
        }
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            JsonValue item = array.get(i);
            String text = item instanceof JsonString string ? string.getString()
                    : item instanceof JsonNumber number && number.isIntegral() ? number.bigIntegerValue().toString()
                    : item == JsonValue.TRUE ? "true" : item == JsonValue.FALSE ? "false" : null;
            boolean quoted = item instanceof JsonString;
            Class<?> type = types.get(i);
            boolean wantsQuotes = type == String.class || type == UUID.class || type == LocalDate.class;
            values[i] = text == null || quoted != wantsQuotes ? null : parse(text, type);
            if (values[i] == null) {
                return null;
            }
        }
        return values;
    }

    /** JSON string quoting as PostgreSQL's {@code escape_json} does it. */
    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < ' ') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
