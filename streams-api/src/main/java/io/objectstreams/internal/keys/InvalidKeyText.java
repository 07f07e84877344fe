package io.objectstreams.internal.keys;

/**
 * Text that is no key of the type asked for, or a value of a type keys cannot have. The message names the text (its
 * first 40 characters), the type and why.
 */
public final class InvalidKeyText extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    InvalidKeyText(String text, Class<?> type, String why) {
        super((text == null ? "null" : "\"" + abbreviated(text) + "\"") + " is no key of type " + type.getName()
                + ": " + why, null);
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
