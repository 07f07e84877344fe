package io.objectstreams.web.filter;

import io.objectstreams.Filterable;
import io.objectstreams.Lookup;
import io.objectstreams.internal.keys.InvalidKeyText;
import io.objectstreams.internal.keys.KeySpelling;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What an entity lets subscribers filter on ({@link Filterable} fields), and the validation of a subscriber's
 * filter object against it. Every problem is collected per key, so one {@code invalid_filter} error names them
 * all (G12).
 */
public final class FilterDeclarations {

    /** The most values one {@code __in} lookup may list. */
    public static final int MAX_IN_VALUES = 1000;

    private static final ClassValue<Map<String, Declared>> DECLARED = new ClassValue<>() {
        @Override
        protected Map<String, Declared> computeValue(Class<?> entity) {
            return declare(entity);
        }
    };

    private FilterDeclarations() {
    }

    private record Declared(String attribute, Class<?> type, Set<Lookup> lookups) {
    }

    /** Validates {@code filter} against the declarations of {@code entity}; an empty object means no constraint. */
    public static Filter parse(Class<?> entity, JsonObject filter) throws InvalidFilterException {
        Map<String, Declared> declared = DECLARED.get(entity);
        Map<String, List<String>> errors = new TreeMap<>();
        List<Filter.Condition> conditions = new ArrayList<>();
        for (Map.Entry<String, JsonValue> entry : filter.entrySet()) {
            String key = entry.getKey();
            int split = key.lastIndexOf("__");
            String attribute = split < 0 ? key : key.substring(0, split);
            String suffix = split < 0 ? "" : key.substring(split + 2);
            Declared field = declared.get(attribute);
            if (field == null) {
                errors.put(key, List.of(declared.isEmpty()
                        ? "Unknown filter: this model declares no filterable attributes."
                        : "Unknown filter. Filterable attributes: "
                                + String.join(", ", new TreeMap<>(declared).keySet()) + "."));
                continue;
            }
            Lookup lookup = Arrays.stream(Lookup.values()).filter(l -> l.suffix().equals(suffix)).findFirst()
                    .orElse(null);
            if (lookup == null || !field.lookups().contains(lookup)) {
                errors.put(key, List.of((lookup == null ? "Unknown lookup '" + suffix + "'" : "Lookup '" + suffix
                        + "' is not allowed") + " on " + attribute + ". Allowed: " + keys(field) + "."));
                continue;
            }
            try {
                conditions.add(new Filter.Condition(attribute, lookup, value(field, lookup, entry.getValue())));
            } catch (BadValue bad) {
                errors.put(key, List.of(bad.getMessage()));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidFilterException(errors);
        }
        return new Filter(conditions);
    }

    private static String keys(Declared field) {
        return field.lookups().stream()
                .map(l -> l == Lookup.EXACT ? field.attribute() : field.attribute() + "__" + l.suffix())
                .collect(Collectors.joining(", "));
    }

    private static Object value(Declared field, Lookup lookup, JsonValue value) throws BadValue {
        switch (lookup) {
            case ISNULL:
                if (value == JsonValue.TRUE || value == JsonValue.FALSE) {
                    return value == JsonValue.TRUE;
                }
                if (value instanceof JsonString text && Set.of("true", "false").contains(text.getString())) {
                    return Boolean.valueOf(text.getString());
                }
                throw new BadValue("Enter true or false.");
            case IN:
                List<JsonValue> items = new ArrayList<>();
                if (value instanceof JsonArray array) {
                    items.addAll(array);
                } else if (value instanceof JsonString text) {
                    Arrays.stream(text.getString().split(",", -1)).map(String::trim)
                            .forEach(s -> items.add(Json.createValue(s)));
                } else {
                    throw new BadValue("Enter a list of values (a JSON array or a comma-separated string).");
                }
                if (items.isEmpty() || items.size() > MAX_IN_VALUES) {
                    throw new BadValue("Enter between 1 and " + MAX_IN_VALUES + " values.");
                }
                List<Object> values = new ArrayList<>();
                for (JsonValue item : items) {
                    values.add(scalar(field.type(), item));
                }
                return List.copyOf(values);
            default:
                return scalar(field.type(), value);
        }
    }

    /** The most digits a number may have before or after its decimal point: PostgreSQL's own limits are higher. */
    static final int MAX_NUMBER_DIGITS = 1_000;

    /**
     * Parses a number whose size is bounded before anything costly is done with it: {@code 1e999999999} is cheap
     * to parse but its exact integer, its plain text (what JDBC sends) or a comparison with it is not (G12).
     */
    private static BigDecimal number(String text) throws BadValue {
        if (text.length() > MAX_NUMBER_DIGITS + 10) {
            throw new BadValue("Enter a number with at most " + MAX_NUMBER_DIGITS + " digits.");
        }
        BigDecimal number = new BigDecimal(text);
        if (number.precision() - number.scale() > MAX_NUMBER_DIGITS || number.scale() > MAX_NUMBER_DIGITS) {
            throw new BadValue("Enter a number with at most " + MAX_NUMBER_DIGITS
                    + " digits before and after the point.");
        }
        return number;
    }

    private static Double finite(double value) throws BadValue {
        if (Double.isInfinite(value)) {
            throw new BadValue("Enter a number in range.");
        }
        return value;
    }

    private static Object scalar(Class<?> type, JsonValue value) throws BadValue {
        if (value.getValueType() == JsonValue.ValueType.NULL) {
            throw new BadValue("This value may not be null; use the isnull lookup.");
        }
        String text = value instanceof JsonString s ? s.getString()
                : value instanceof JsonNumber n ? n.toString()
                : value == JsonValue.TRUE || value == JsonValue.FALSE ? value.toString() : null;
        if (text == null) {
            throw new BadValue("Enter a single value, not " + value.getValueType().name().toLowerCase() + ".");
        }
        try {
            if (type == String.class && !(value instanceof JsonString)) {
                throw new BadValue("Enter text.");
            }
            if (KeySpelling.supports(type)) {
                // A value of a key's type reads as a subject's pk reads, so a filter on a key names what events name.
                return KeySpelling.read(text, type);
            }
            if (type == BigDecimal.class) {
                return number(text);
            }
            if (type == Double.class) {
                return finite(number(text).doubleValue());
            }
            if (type == Float.class) {
                return Float.valueOf((float) finite(number(text).floatValue()).doubleValue());
            }
            if (type == LocalDateTime.class) {
                return LocalDateTime.parse(text);
            }
            if (type == Instant.class) {
                return Instant.parse(text);
            }
            if (type == OffsetDateTime.class) {
                return OffsetDateTime.parse(text);
            }
        } catch (InvalidKeyText refused) {
            throw new BadValue(refusal(type, text));
        } catch (NumberFormatException e) {
            throw new BadValue("Enter a number.");
        } catch (DateTimeParseException e) {
            throw new BadValue("Enter an ISO-8601 " + type.getSimpleName() + ".");
        }
        throw new IllegalStateException("unreachable: type checked at declaration");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String refusal(Class<?> type, String text) {
        if (type.isEnum()) {
            return "Select a valid choice. " + text + " is not one of the available choices: " + Arrays.stream(
                    type.getEnumConstants()).map(c -> ((Enum) c).name()).collect(Collectors.joining(", ")) + ".";
        }
        return KeySpelling.isWholeNumber(type) ? "Enter a whole number in range."
                : type == Boolean.class ? "Enter true or false."
                : type == UUID.class ? "Enter a valid UUID." : "Enter an ISO-8601 " + type.getSimpleName() + ".";
    }

    private static Map<String, Declared> declare(Class<?> entity) {
        Map<String, Declared> declared = new LinkedHashMap<>();
        for (Class<?> type = entity; type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                Filterable filterable = field.getAnnotation(Filterable.class);
                if (filterable == null || declared.containsKey(field.getName())) {
                    continue;
                }
                Class<?> valueType = boxed(field.getType());
                if (!supported(valueType)) {
                    throw new IllegalStateException("@Filterable " + entity.getName() + "." + field.getName()
                            + " has type " + valueType.getName() + ", which filters do not support (text, numbers,"
                            + " booleans, enums, UUIDs and java.time dates)");
                }
                Set<Lookup> lookups = filterable.value().length == 0 ? EnumSet.noneOf(Lookup.class)
                        : EnumSet.copyOf(Arrays.asList(filterable.value()));
                if (valueType == Boolean.class && lookups.stream().anyMatch(Lookup::isRange)) {
                    throw new IllegalStateException("@Filterable " + entity.getName() + "." + field.getName()
                            + " allows a range lookup on a boolean");
                }
                declared.put(field.getName(), new Declared(field.getName(), valueType, lookups));
            }
        }
        return Map.copyOf(declared);
    }

    private static boolean supported(Class<?> type) {
        return KeySpelling.supports(type) || type == BigDecimal.class || type == Double.class || type == Float.class
                || type == LocalDateTime.class || type == Instant.class || type == OffsetDateTime.class;
    }

    private static Class<?> boxed(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "long" -> Long.class;
            case "int" -> Integer.class;
            case "short" -> Short.class;
            case "byte" -> Byte.class;
            case "double" -> Double.class;
            case "float" -> Float.class;
            case "boolean" -> Boolean.class;
            default -> type;
        };
    }

    private static final class BadValue extends Exception {
        private static final long serialVersionUID = 1L;

        BadValue(String message) {
            super(message, null, false, false);
        }
    }
}
