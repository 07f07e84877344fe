package io.objectstreams.web.subscription;

import io.objectstreams.feed.LaterDeletes;
import io.objectstreams.feed.StreamsFeed;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Which subjects of a model were deleted after a cursor ({@link StreamsFeed#deletedAfter}). Membership is read from the
 * database as it is now; a pk deleted after a cursor and created again since names another object there, so a
 * subscription's members as of that cursor leave such pks out (G8; reliability.md, defect 14). The fan-out reads every
 * later row instead ({@link LaterRows}). Always read after the membership it corrects.
 */
@FunctionalInterface
interface DeletesAfter {

    /** No look-ahead: for tests whose world never runs ahead of the rows they fan out. */
    DeletesAfter NONE = (model, pks, after) -> LaterDeletes.NONE;

    /**
     * The subjects of {@code model} among {@code pks} ({@code null}: any) deleted by a row after {@code after}.
     *
     * @throws SQLException when the outbox cannot be read: the decision it was for cannot be made
     */
    LaterDeletes read(String model, Collection<String> pks, long after) throws SQLException;

    /**
     * Beyond this many pks, {@link #without} reads the model's deletes after the cursor instead of probing each pk:
     * the rows after a cursor the fan-out reached are few, a set's members can be thousands.
     */
    int PROBES = 1_000;

    /** {@code pks} without those deleted after {@code after}, read now. */
    default Set<String> without(String model, Set<String> pks, long after) throws SQLException {
        if (pks.isEmpty()) {
            return pks;
        }
        LaterDeletes deleted = read(model, pks.size() <= PROBES ? pks : null, after);
        if (deleted.none()) {
            return pks;
        }
        Set<String> kept = new HashSet<>(pks);
        kept.removeIf(deleted::contains);
        return kept;
    }
}
