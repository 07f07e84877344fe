package io.objectstreams.web.subscription;

import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.SubscriptionSettings;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.visibility.ModelKeys;
import io.objectstreams.web.visibility.Scope;
import io.objectstreams.web.visibility.Visibility;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Reads the members a filter or model subscription starts with, sharing what subscriptions registered at one
 * cursor can share ({@link StartReadsByCursor}): a scope's own read, and in a reconnect storm of distinct viewers
 * under a keyed policy, one read of every row's keys for all of them ({@link ModelKeys}).
 */
final class StartMemberReads {

    private static final Logger LOG = Logger.getLogger(StartMemberReads.class.getName());
    private static final RateLimitedLog FAILURES = new RateLimitedLog(Duration.ofMinutes(1));
    private static final Object NOT_KEYED = new Object();

    /** Distinct scopes that read their members alone at one cursor before the model's keys are read for all. */
    static final int STORM_SCOPES = 3;
    /** Rows of a model's keys whose read costs about as much as one scope's members query. */
    static final int ROWS_PER_SCOPE_READ = 1_000;
    /** The rows the last read of each (model, filter)'s keys found ({@code maxRows} when there were more). */
    private final Map<List<Object>, Integer> modelRows = new ConcurrentHashMap<>();

    /**
     * The one read of every row's keys kept, or under way ({@link ModelKeys}, or {@link #NOT_KEYED}): for the
     * subscriptions registered at {@code cursor}, for at most {@link StartReadsByCursor#MAX_AGE_NANOS}. One at a
     * time, so that however many filters clients name, the keys held cost at most
     * {@code streams.subscriptions.shared-member-rows} rows.
     */
    private record Kept(List<Object> key, long cursor, long readAt, CompletableFuture<Object> read) {
    }

    private Kept kept;

    /** A subscription's members. */
    record Read(Set<String> members) {
    }

    private final Visibility visibility;
    private final StreamsFeed feed;
    private final SubscriptionLimits limits;
    private final StartReadsByCursor shared;

    StartMemberReads(Visibility visibility, StreamsFeed feed, SubscriptionLimits limits, StartReadsByCursor shared) {
        this.visibility = visibility;
        this.feed = feed;
        this.limits = limits;
        this.shared = shared;
    }

    /**
     * The members a filter or model subscription registered at {@code cursor} starts with, read once per scope among
     * the subscriptions registered at that cursor ({@link StartReadsByCursor}).
     */
    Read read(Subscription subscription, long cursor) throws ProtocolError, SQLException {
        int max = limits.maxMemberPks();
        List<Object> key = List.of("members", subscription.scope());
        Read read = (Read) shared.get(key, cursor);
        if (read == null) {
            read = fromModelKeys(subscription.scope(), cursor, max);
        }
        if (read == null) {
            long readAt = System.nanoTime();
            Set<String> members = visibility.members(subscription.scope(), max);
            read = new Read(members);
            shared.keep(key, cursor, readAt, read, members.size());
        }
        if (read.members().size() > max) {
            throw ProtocolError.limit(ErrorCode.SUBSCRIPTION_TOO_LARGE, SubscriptionSettings.MAX_MEMBER_PKS.key(),
                    "The subscription matches more than " + max
                    + " objects (" + SubscriptionSettings.MAX_MEMBER_PKS.key() + "); narrow the filter");
        }
        return read;
    }

    /**
     * A keyed scope's members from the keys of every row of its (model, filter), read once for all the scopes
     * registered at {@code cursor} ({@link ModelKeys}); {@code null} to read the scope alone. They are read once
     * enough distinct scopes ask at one cursor that one read of every row costs less than a read each: at least
     * {@link #STORM_SCOPES}, and one per {@link #ROWS_PER_SCOPE_READ} rows the last such read found. Never past
     * {@code streams.subscriptions.shared-member-rows} rows, and one read at a time: scopes that ask while it runs
     * wait for it, and while it is fresh a scope of another (model, filter) is read alone rather than replace it.
     */
    private Read fromModelKeys(Scope scope, long cursor, int max) throws SQLException {
        int maxRows = feed.settings().subscriptions().sharedMemberRows();
        if (maxRows == 0 || !scope.holdsKeys()) {
            return null;
        }
        List<Object> key = List.of(scope.model(), scope.filter());
        CompletableFuture<Object> read;
        boolean reader = false;
        synchronized (this) {
            long now = System.nanoTime();
            boolean fresh = kept != null && kept.cursor() >= cursor
                    && now - kept.readAt() <= StartReadsByCursor.MAX_AGE_NANOS;
            if (fresh && kept.cursor() == cursor && kept.key().equals(key)) {
                read = kept.read();
            } else if (fresh || shared.count(List.of("member-reads", key), cursor)
                    <= Math.max(STORM_SCOPES, modelRows.getOrDefault(key, 0) / ROWS_PER_SCOPE_READ)) {
                return null;
            } else {
                read = new CompletableFuture<>();
                kept = new Kept(key, cursor, now, read);
                reader = true;
            }
        }
        if (reader) {
            Object answer = NOT_KEYED;
            try {
                ModelKeys keys = readModelKeys(scope, maxRows);
                if (modelRows.size() >= 1_024) { // filters are the clients': never an unbounded map of them
                    modelRows.clear();
                }
                modelRows.put(key, keys == null ? maxRows : keys.size());
                answer = keys == null ? NOT_KEYED : keys;
            } finally {
                read.complete(answer);
            }
        }
        Object answer = read.join();
        Set<String> members = answer instanceof ModelKeys keys ? keys.members(scope, max + 1) : null;
        return members == null ? null : new Read(members);
    }

    private ModelKeys readModelKeys(Scope scope, int maxRows) {
        try {
            return visibility.modelKeys(scope.model(), scope.filter(), maxRows).orElse(null);
        } catch (RuntimeException e) {
            // Nothing is owed yet: every scope waiting for this read then reads its own members, and one whose own
            // read fails too is answered unavailable, by its subscription id (ReplayPlanner#start).
            FAILURES.log(LOG, "The keys of every " + scope.model() + " could not be read;"
                    + " members are read per viewer", e);
            return null;
        }
    }
}
