package io.objectstreams.web.subscription;

import io.objectstreams.StreamEvent;
import io.objectstreams.feed.StreamsFeed;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model replays read last, shared by the subscriptions that resume over the same span. After a deploy or a
 * network blip every client of a model reconnects from about the same cursor, and the subscriptions registered
 * between two batches start at the same one, so a reconnect storm asks for the same few spans thousands of times.
 *
 * <p>A span is read once, then served from here: the events of a model after one cursor and through another that
 * delivery has passed never change (cursors are assigned in commit order, and a later one is always larger).
 * Retention may delete some of them, so every read is followed by a look at its watermark: rows read before
 * retention passed their start are complete, and stay a complete replay however long they are served. A span is
 * served for at most {@link #MAX_AGE_NANOS} after it was read (then read and checked again, so that a client
 * resuming from a pruned cursor soon hears so), spans longer than {@link #MAX_ROWS} events are never kept, and at
 * most {@link #SPANS} spans are, the least recently used going first.
 */
final class ModelReplayReads {

    static final int SPANS = 8;
    static final int MAX_ROWS = 1_000;
    static final long MAX_AGE_NANOS = 1_000_000_000L;

    private record Span(String model, long after, long through, int limit) {
    }

    private record Kept(List<StreamEvent> rows, long readAt) {
    }

    private final StreamsFeed feed;
    private final Map<Span, Kept> spans = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Span, Kept> eldest) {
            return size() > SPANS;
        }
    };

    ModelReplayReads(StreamsFeed feed) {
        this.feed = feed;
    }

    /**
     * {@link StreamsFeed#modelBetween}, once per span while it is kept; {@code null} when retention had deleted rows
     * after {@code after} by the time they were read, so that they may lack some (G11).
     */
    List<StreamEvent> modelBetween(String model, long after, long through, int limit) throws SQLException {
        Span span = new Span(model, after, through, limit);
        synchronized (spans) {
            Kept kept = spans.get(span);
            if (kept != null && System.nanoTime() - kept.readAt() <= MAX_AGE_NANOS) {
                return kept.rows();
            }
        }
        long readAt = System.nanoTime();
        List<StreamEvent> read = List.copyOf(feed.modelBetween(model, after, through, limit));
        if (ReplayClassification.pruned(after, feed.cursorState())) {
            return null;
        }
        if (read.size() <= MAX_ROWS) {
            synchronized (spans) {
                spans.put(span, new Kept(read, readAt));
            }
        }
        return read;
    }
}
