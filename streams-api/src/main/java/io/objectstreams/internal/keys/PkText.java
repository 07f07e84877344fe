package io.objectstreams.internal.keys;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.util.List;

/**
 * A subject's pk as text, the one form outbox rows, the protocol and every capture path use. A key of one part is
 * that part's {@link KeySpelling#text}. A key of several parts ({@code @IdClass}, {@code @EmbeddedId}) is a JSON
 * array of their values in declared order, spelled exactly as PostgreSQL's {@code jsonb} prints
 * {@code jsonb_build_array(...)}: {@code ["eu", 7]}, one space after each comma, text, UUIDs and dates quoted, numbers
 * and booleans bare. A capture trigger writes it so; the entity listener and the publisher write the same; delivery
 * reads it back.
 */
public final class PkText {

    private static final JsonProvider JSON = JsonProvider.provider();

    private PkText() {
    }

    /** The pk of a key's parts, in declared order: one part's text, or the array of several. */
    public static String text(Object[] parts) {
        if (parts.length == 1) {
            return KeySpelling.text(parts[0]);
        }
        StringBuilder pk = new StringBuilder("[");
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                pk.append(", ");
            }
            Object part = parts[i];
            if (part == null) {
                pk.append("null");
            } else if (KeySpelling.isQuoted(part.getClass())) {
                quote(KeySpelling.text(part), pk);
            } else {
                pk.append(KeySpelling.text(part));
            }
        }
        return pk.append(']').toString();
    }

    /**
     * The key a pk names, given its parts' types: the value of a one-part key, or the array of a composite key's
     * values. Read as {@link KeySpelling#read} reads a value; an array with any JSON spacing, but each part of its
     * JSON type (a number bare, text quoted). Throws {@link InvalidKeyText} when the pk can be no such key.
     */
    public static Object read(String pk, List<Class<?>> types) {
        if (types.size() == 1) {
            return KeySpelling.read(pk, types.get(0));
        }
        JsonArray array = array(pk, types);
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            JsonValue item = array.get(i);
            Class<?> type = types.get(i);
            String text = KeySpelling.isQuoted(type) ? item instanceof JsonString string ? string.getString() : null
                    : item instanceof JsonNumber number ? number.toString()
                    : item == JsonValue.TRUE || item == JsonValue.FALSE ? item.toString() : null;
            if (text == null) {
                throw new InvalidKeyText(pk, type, "part " + (i + 1) + " is " + item.getValueType()
                        + ", not a JSON " + (KeySpelling.isQuoted(type) ? "string" : "number or boolean"));
            }
            values[i] = KeySpelling.read(text, type);
        }
        return values;
    }

    /** The pk of the key {@code pk} names, in its canonical spelling ({@link #read}, then {@link #text}). */
    public static String canonical(String pk, List<Class<?>> types) {
        Object key = read(pk, types);
        return types.size() == 1 ? KeySpelling.text(key) : text((Object[]) key);
    }

    /** The pk of a key as {@link #read} returns it: one value, or a composite key's array of values. */
    public static String textOf(Object key) {
        return key instanceof Object[] parts ? text(parts) : KeySpelling.text(key);
    }

    private static JsonArray array(String pk, List<Class<?>> types) {
        try {
            JsonValue value = JSON.createReader(new StringReader(pk)).readValue();
            if (value.getValueType() == JsonValue.ValueType.ARRAY && value.asJsonArray().size() == types.size()) {
                return value.asJsonArray();
            }
        } catch (JsonException | IllegalStateException notJson) {
            // refused below, as any other text that is no array of this key's width
        }
        throw new InvalidKeyText(pk, Object[].class, "a key of " + types.size() + " parts is a JSON array of as many");
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
