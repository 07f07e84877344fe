package io.objectstreams.internal.keys;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The one text of a key value, and back. A key may be text, a whole number ({@code Long}, {@code Integer},
 * {@code Short}, {@code Byte}, {@code BigInteger}), a boolean, a UUID, a {@code LocalDate} or an enum; its text is
 * what PostgreSQL prints for the column a capture trigger reads ({@code 7}, {@code true}, a UUID in lower case,
 * {@code 2024-05-01}) and, for an enum, its name. A value of any other type has no text.
 *
 * <p>Text comes back two ways. {@link #read} takes any spelling that names exactly one value ({@code "007"},
 * {@code "+7"}, {@code "7.0"} and {@code "1e1"} for whole numbers, a UUID in any case), for what a client or another
 * writer sends, which is then respelled by {@link #text}. {@link #parse} takes only the canonical text, for what is
 * compared as text afterwards (visibility keys): there {@code "007"} must name no row, as it names none in memory.
 */
public final class KeySpelling {

    /** The most digits a whole number may have before or after its point: reading a longer one costs too much. */
    public static final int MAX_DIGITS = 1_000;

    /** Decimal notation in ASCII digits only: {@code Long.valueOf} would also take other scripts' digits. */
    private static final Pattern DECIMAL =
            Pattern.compile("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]{1,9})?");
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private static final Set<Class<?>> WHOLE = Set.of(Long.class, long.class, Integer.class, int.class, Short.class,
            short.class, Byte.class, byte.class, BigInteger.class);
    private static final Set<Class<?>> OTHER = Set.of(String.class, Boolean.class, boolean.class, UUID.class,
            LocalDate.class);

    private KeySpelling() {
    }

    /** Whether values of {@code type} can be keys. */
    public static boolean supports(Class<?> type) {
        return WHOLE.contains(type) || OTHER.contains(type) || type.isEnum();
    }

    /** Whether {@code type} is a whole number type: read from any decimal notation of a whole number in range. */
    public static boolean isWholeNumber(Class<?> type) {
        return WHOLE.contains(type);
    }

    /**
     * Whether a value of {@code type} is a JSON string in a composite key's array (text, UUIDs, dates, enums), as
     * {@code jsonb} prints it, rather than a bare JSON number or boolean.
     */
    public static boolean isQuoted(Class<?> type) {
        return !WHOLE.contains(type) && type != Boolean.class && type != boolean.class;
    }

    /** The canonical text of a key value; throws {@link InvalidKeyText} for {@code null} or a type keys cannot have. */
    public static String text(Object value) {
        String text = textOrNull(value);
        if (text == null) {
            throw new InvalidKeyText(null, value == null ? Object.class : value.getClass(), "keys may be text, whole"
                    + " numbers, booleans, UUIDs, dates or enums, and not null");
        }
        return text;
    }

    /** The canonical text of a key value, or {@code null} for {@code null} and for a type keys cannot have. */
    public static String textOrNull(Object value) {
        if (value instanceof Enum<?> constant) {
            return constant.name();
        }
        return value != null && supports(value.getClass()) ? value.toString() : null;
    }

    /**
     * The value of {@code type} that {@code text} spells in any notation that names exactly one value; throws
     * {@link InvalidKeyText} naming why when it names none.
     */
    public static Object read(String text, Class<?> type) {
        if (text == null) {
            throw new InvalidKeyText(null, type, "a key is never null");
        }
        if (type == String.class) {
            return text;
        }
        if (WHOLE.contains(type)) {
            return whole(text, type);
        }
        if (type == Boolean.class || type == boolean.class) {
            if (text.equals("true") || text.equals("false")) {
                return Boolean.valueOf(text);
            }
            throw new InvalidKeyText(text, type, "enter true or false");
        }
        if (type == UUID.class) {
            if (UUID_TEXT.matcher(text).matches()) {
                return UUID.fromString(text);
            }
            throw new InvalidKeyText(text, type, "enter a UUID as 8-4-4-4-12 hexadecimal digits");
        }
        if (type == LocalDate.class) {
            try {
                return LocalDate.parse(text);
            } catch (DateTimeParseException notADate) {
                throw new InvalidKeyText(text, type, "enter an ISO-8601 date (2024-05-01)");
            }
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals(text)) {
                    return constant;
                }
            }
            throw new InvalidKeyText(text, type, "enter the name of one of its constants");
        }
        throw new InvalidKeyText(text, type, "keys may be text, whole numbers, booleans, UUIDs, dates or enums");
    }

    /** The value of {@code type} whose canonical text is {@code text}; throws {@link InvalidKeyText} otherwise. */
    public static Object parse(String text, Class<?> type) {
        Object value = read(text, type);
        String canonical = text(value);
        if (!canonical.equals(text)) {
            throw new InvalidKeyText(text, type, "spelled otherwise than its canonical text " + canonical);
        }
        return value;
    }

    /** The canonical text of the value of {@code type} that {@code text} spells ({@link #read}). */
    public static String canonical(String text, Class<?> type) {
        return text(read(text, type));
    }

    private static Object whole(String text, Class<?> type) {
        BigInteger whole;
        try {
            // Bounded before anything costly: 1e999999999 parses at once, but its exact integer has a billion digits.
            if (text.length() > MAX_DIGITS + 12 || !DECIMAL.matcher(text).matches()) {
                throw new NumberFormatException();
            }
            BigDecimal number = new BigDecimal(text);
            if (number.precision() - number.scale() > MAX_DIGITS || number.scale() > MAX_DIGITS) {
                throw new NumberFormatException();
            }
            whole = number.toBigIntegerExact();
        } catch (NumberFormatException | ArithmeticException notWhole) {
            throw new InvalidKeyText(text, type, "enter a whole number of at most " + MAX_DIGITS + " digits");
        }
        if (type == BigInteger.class) {
            return whole;
        }
        long min = type == Long.class || type == long.class ? Long.MIN_VALUE
                : type == Integer.class || type == int.class ? Integer.MIN_VALUE
                : type == Short.class || type == short.class ? Short.MIN_VALUE : Byte.MIN_VALUE;
        long max = -(min + 1);
        if (whole.bitLength() > 63 || whole.longValue() < min || whole.longValue() > max) {
            throw new InvalidKeyText(text, type, "enter a whole number from " + min + " to " + max);
        }
        // Not one conditional expression: it would unbox every branch to long.
        long value = whole.longValue();
        if (type == Long.class || type == long.class) {
            return value;
        }
        if (type == Integer.class || type == int.class) {
            return (int) value;
        }
        return type == Short.class || type == short.class ? (Object) (short) value : (Object) (byte) value;
    }
}
