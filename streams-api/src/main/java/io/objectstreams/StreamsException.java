package io.objectstreams;

/**
 * A failure with a stable, machine-readable code (the protocol's error code where one exists) and a
 * message that says what to do next.
 */
public class StreamsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;

    public StreamsException(String code, String message) {
        super(message);
        this.code = code;
    }

    public StreamsException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The stable error code, such as {@code invalid_configuration} or {@code no_transaction}. */
    public String code() {
        return code;
    }

    /** With the code, so that a logged stack trace names it. */
    @Override
    public String toString() {
        return getClass().getName() + " [" + code + "]: " + getMessage();
    }
}
