package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.feed.StreamsFeed;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows committed after a batch about its subjects ({@link StreamsFeed#rowsAfter}). The fan-out reads membership
 * from the database as it is now, which may already reflect them: a row of the batch is decided as itself only when
 * none of them, as none of the later rows of its batch, changed what its subscription is decided by ({@link
 * BatchSteps}). Without them, a row written while an object was another user's would be told to a viewer it was given
 * to later, whenever the fan-out ran behind (G8; reliability.md, defect 14). Always read after the membership.
 */
@FunctionalInterface
interface LaterRows {

    /** No look-ahead: for tests whose world never runs ahead of the rows they fan out. */
    LaterRows NONE = (model, pks, after) -> List.of();

    /**
     * The rows of {@code model} about {@code pks}, and its truncations, committed after {@code after}.
     *
     * @throws SQLException when the outbox cannot be read: the batch cannot be decided
     */
    List<StreamEvent> read(String model, Collection<String> pks, long after) throws SQLException;

    /**
     * For each model of {@code pksByModel}, its later rows about the given pks; a model with none is absent. Throws
     * when the outbox cannot be read, which fails the batch: its subscriptions are told to resync.
     */
    default Map<String, List<StreamEvent>> of(Map<String, Set<String>> pksByModel, long after) {
        Map<String, List<StreamEvent>> found = new HashMap<>();
        for (Map.Entry<String, Set<String>> entry : pksByModel.entrySet()) {
            try {
                List<StreamEvent> rows = read(entry.getKey(), entry.getValue(), after);
                if (!rows.isEmpty()) {
                    found.put(entry.getKey(), rows);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Could not read the " + entry.getKey() + " rows committed after cursor "
                        + after, e);
            }
        }
        return found;
    }
}
