package io.objectstreams.feed;

import java.util.Set;

/**
 * The subjects of one model deleted after a cursor (committed, with a later cursor or none yet): a row at or before
 * that cursor concerns an object that no longer exists, whatever a later create of the same pk brought. Membership is
 * read from the database now, where such a pk names the new object, so the rows of the old one must not be decided by
 * it (natural keys, ids restored from a backup).
 *
 * @param pks       the deleted subjects' pks
 * @param truncated whether the model's table was truncated after the cursor: then every subject counts as deleted
 */
public record LaterDeletes(Set<String> pks, boolean truncated) {

    /** Nothing deleted after the cursor. */
    public static final LaterDeletes NONE = new LaterDeletes(Set.of(), false);

    public LaterDeletes {
        pks = Set.copyOf(pks);
    }

    /** Whether the object {@code pk} named at the cursor was deleted after it. */
    public boolean contains(String pk) {
        return truncated || pks.contains(pk);
    }

    /** Whether no object was deleted after the cursor. */
    public boolean none() {
        return !truncated && pks.isEmpty();
    }
}
