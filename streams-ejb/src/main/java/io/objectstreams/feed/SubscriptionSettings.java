package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** What one subscription may hold and replay, on every transport; each constant's doc says what it does. */
public record SubscriptionSettings(int maxMemberPks, int replayLimit) {

    public static final Setting<Integer> MAX_MEMBER_PKS = Setting.integer("streams.subscriptions.max-member-pks",
            10_000, 1, 10_000_000,
            "Objects one filter or model subscription may hold; checked with a bounded query before it starts.")
            .deprecatedKey("streams.websocket.max-member-pks");

    public static final Setting<Integer> REPLAY_LIMIT = Setting.integer("streams.replay-limit", 1000, 0, 1_000_000,
            "Missed events an object subscription replays before it is told to resync instead.");

    static SubscriptionSettings from(ConfigValues values) {
        return new SubscriptionSettings(values.get(MAX_MEMBER_PKS), values.get(REPLAY_LIMIT));
    }
}
