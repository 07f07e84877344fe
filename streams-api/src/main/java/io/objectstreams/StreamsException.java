package io.objectstreams;

import io.objectstreams.protocol.LibraryErrorCode;
import java.util.Locale;

/**
 * A failure of the library with a stable, machine-readable code ({@link LibraryErrorCode}) and a message that says
 * what to do next.
 */
public class StreamsException extends RuntimeException {

    /** 2: the code became a {@link LibraryErrorCode}. */
    private static final long serialVersionUID = 2L;

    private final LibraryErrorCode code;

    public StreamsException(LibraryErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    /**
     * With a code given by its spelling ({@code capture_failed}), as before {@link LibraryErrorCode} existed.
     *
     * @throws IllegalArgumentException if the spelling names no {@link LibraryErrorCode}
     * @deprecated name the constant instead
     */
    @Deprecated
    public StreamsException(String code, String message) {
        this(LibraryErrorCode.valueOf(code.toUpperCase(Locale.ROOT)), message);
    }

    public StreamsException(LibraryErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The stable error code's spelling, such as {@code invalid_configuration} or {@code no_transaction}. */
    public String code() {
        return code.wireName();
    }

    /** The stable error code. */
    public LibraryErrorCode errorCode() {
        return code;
    }

    /** With the code, so that a logged stack trace names it. */
    @Override
    public String toString() {
        return getClass().getName() + " [" + code.wireName() + "]: " + getMessage();
    }
}
