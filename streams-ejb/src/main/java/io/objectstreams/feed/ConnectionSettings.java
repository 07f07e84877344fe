package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;

/** What this instance admits, and what one connection of any transport may hold; each constant's doc says more. */
public record ConnectionSettings(int max, int maxPerPrincipal, int maxAnonymous, int maxMemberPks, int reservedFiles,
                                 long heapPerConnection, int maxHeapPercent) {

    public static final Setting<Integer> MAX = Setting.integer("streams.connections.max", 10_000, 1, 10_000_000,
            "Connections of every transport this instance accepts at once.");

    public static final Setting<Integer> MAX_PER_PRINCIPAL = Setting.integer("streams.connections.max-per-principal",
            32, 1, 10_000_000,
            "Connections one authenticated principal may hold at once (a browser tab holds one WebSocket, or one SSE"
                    + " stream per subscription); at most streams.connections.max.");

    public static final Setting<Integer> MAX_ANONYMOUS = Setting.integer("streams.connections.max-anonymous",
            100, 0, 10_000_000,
            "Connections without an authenticated principal this instance accepts at once, together; at most"
                    + " streams.connections.max. Only where some visibility policy admits anonymous readers:"
                    + " otherwise they are refused with 401.");

    public static final Setting<Integer> MAX_MEMBER_PKS = Setting.integer("streams.connections.max-member-pks",
            100_000, 1, 100_000_000,
            "Member pks all subscriptions of one connection may hold together;"
                    + " at least streams.subscriptions.max-member-pks.")
            .deprecatedKey("streams.websocket.max-connection-member-pks");

    public static final Setting<Integer> RESERVED_FILES = Setting.integer("streams.connections.reserved-files",
            512, 0, 10_000_000,
            "Open files kept for the server itself, beyond those it holds when it starts taking connections: database"
                    + " connections, health and admin requests, deployments, logs. A connection that would leave fewer"
                    + " free under the process's open-file limit is refused (connection_limit_exceeded).");

    public static final Setting<Long> HEAP_PER_CONNECTION = Setting.bytes("streams.connections.heap-per-connection",
            40L * 1024, 1, 1L << 30,
            "What one connection is taken to hold of the heap, for the deployment's check of streams.connections.max"
                    + " against the maximum heap; the check only warns.");

    public static final Setting<Integer> MAX_HEAP_PERCENT = Setting.integer("streams.connections.max-heap-percent",
            95, 1, 100,
            "New connections are refused (connection_limit_exceeded) while what the heap still held after its last"
                    + " collections is above this percentage of the maximum heap; 100 turns the check off.");

    static ConnectionSettings from(ConfigValues values, SubscriptionSettings subscriptions) {
        int max = values.get(MAX);
        return new ConnectionSettings(max, values.get(MAX_PER_PRINCIPAL.atMost(max)),
                values.get(MAX_ANONYMOUS.atMost(max)), values.get(MAX_MEMBER_PKS.atLeast(subscriptions.maxMemberPks())),
                values.get(RESERVED_FILES), values.get(HEAP_PER_CONNECTION), values.get(MAX_HEAP_PERCENT));
    }
}
