package io.objectstreams.protocol;

import java.util.Locale;

/**
 * Why the library itself failed ({@link io.objectstreams.StreamsException#code()}): at deployment, or in the
 * application's own write, never as a reply to a client (those are {@link ErrorCode}s). Each message says what to do
 * next; docs/capture.md, docs/configuration.md and docs/schema.md name the cases.
 */
public enum LibraryErrorCode {
    /** A {@code @Streamed} entity or its relationships cannot be captured as mapped: deployment or the write fails. */
    CAPTURE_FAILED,
    /** A persistence unit a visibility policy reads does not capture its {@code @Streamed} entities (G1). */
    CAPTURE_NOT_CONFIGURED,
    /** A {@code streams.*} setting, or a combination of them, cannot be used; the message names the key. */
    INVALID_CONFIGURATION,
    /** A pk handed to {@code StreamsPublisher.publish} can be no key of its model. */
    INVALID_PK,
    /** A change was recorded outside a JTA transaction, where no outbox row could commit with it. */
    NO_TRANSACTION,
    /** The outbox rows of a transaction could not be written: the transaction rolls back (G2). */
    OUTBOX_WRITE_FAILED,
    /** The outbox schema could not be created or migrated at deployment. */
    SCHEMA_MIGRATION_FAILED;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    /** The code's stable spelling, e.g. {@code capture_failed}. */
    public String wireName() {
        return wireName;
    }
}
