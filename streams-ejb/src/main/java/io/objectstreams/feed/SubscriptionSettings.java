package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** What one subscription may hold and replay, on every transport; each constant's doc says what it does. */
public record SubscriptionSettings(int maxMemberPks, int replayLimit, int maxScopes, int maxTotalMemberPks,
                                   int viewersPerQuery, int startThreads, int maxPendingRequests,
                                   int sharedMemberRows) {

    public static final Setting<Integer> MAX_MEMBER_PKS = Setting.integer("streams.subscriptions.max-member-pks",
            10_000, 1, 10_000_000,
            "Objects one filter or model subscription may hold; checked with a bounded query before it starts.")
            .deprecatedKey("streams.websocket.max-member-pks");

    public static final Setting<Integer> REPLAY_LIMIT = Setting.integer("streams.replay-limit", 1000, 0, 1_000_000,
            "Missed events an object subscription replays before it is told to resync instead.");

    public static final Setting<Integer> MAX_SCOPES = Setting.integer("streams.subscriptions.max-scopes", 10_000, 1,
            10_000_000,
            "Distinct (viewer, model, filter) scopes all subscriptions of this instance may hold together; each costs"
                    + " at most one membership query per batch that concerns its model.");

    public static final Setting<Integer> MAX_TOTAL_MEMBER_PKS = Setting.integer(
            "streams.subscriptions.max-total-member-pks", 1_000_000, 1, 1_000_000_000,
            "Member pks all subscriptions of this instance may hold together, about 100 bytes of heap each;"
                    + " at least streams.subscriptions.max-member-pks.");

    public static final Setting<Integer> VIEWERS_PER_QUERY = Setting.integer("streams.visibility.viewers-per-query",
            100, 1, 1000,
            "Viewers one visibility query of a batch answers under a policy that is not keyed (a CASE column each);"
                    + " a keyed policy answers every viewer with one query per (model, filter).");

    public static final Setting<Integer> START_THREADS = Setting.integer("streams.subscriptions.start-threads",
            Math.max(2, Runtime.getRuntime().availableProcessors()), 1, 256,
            "Threads that handle the clients' requests (subscribe: members and replay read from the database),"
                    + " so a reconnect storm never holds the transport's threads, which also serve health.");

    public static final Setting<Integer> MAX_PENDING_REQUESTS = Setting.integer(
            "streams.subscriptions.max-pending-requests", 64, 1, 100_000,
            "Requests of one connection waiting for a start thread; past it the connection is read no further until"
                    + " one has run, so a client sending faster than it is answered is slowed down by TCP.");

    public static final Setting<Integer> SHARED_MEMBER_ROWS = Setting.integer(
            "streams.subscriptions.shared-member-rows", 100_000, 0, 10_000_000,
            "Under a keyed policy, when distinct viewers subscribe to one (model, filter) between two batches (a"
                    + " reconnect storm), their members come from one read of every matching row's keys if there are"
                    + " at most this many rows (about 150 bytes of heap each, for at most a second); 0: each alone.");

    static SubscriptionSettings from(ConfigValues values) {
        int maxMemberPks = values.get(MAX_MEMBER_PKS);
        return new SubscriptionSettings(maxMemberPks, values.get(REPLAY_LIMIT), values.get(MAX_SCOPES),
                values.get(MAX_TOTAL_MEMBER_PKS.atLeast(maxMemberPks)), values.get(VIEWERS_PER_QUERY),
                values.get(START_THREADS), values.get(MAX_PENDING_REQUESTS), values.get(SHARED_MEMBER_ROWS));
    }
}
