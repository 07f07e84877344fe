package io.objectstreams.internal.health;

import java.util.Map;

/**
 * What the transports of this instance did since it started, by kind, for metrics: every map is cumulative and keyed
 * by the names operators read in docs/operations.md.
 *
 * @param deliveredByTransport events sent to clients, by transport ({@code websocket}, {@code sse})
 * @param openedByTransport    connections admitted, by transport
 * @param endedByCause         connections that ended, by {@code transport.cause}
 * @param refusalsByCode       requests and connections refused with a protocol error, by its code
 * @param refusalsBySetting    those a limit refused, by the key of its setting ({@code streams.connections.max})
 */
public record TransportCounts(Map<String, Long> deliveredByTransport, Map<String, Long> openedByTransport,
                              Map<String, Long> endedByCause, Map<String, Long> refusalsByCode,
                              Map<String, Long> refusalsBySetting) {

    public TransportCounts {
        deliveredByTransport = Map.copyOf(deliveredByTransport);
        openedByTransport = Map.copyOf(openedByTransport);
        endedByCause = Map.copyOf(endedByCause);
        refusalsByCode = Map.copyOf(refusalsByCode);
        refusalsBySetting = Map.copyOf(refusalsBySetting);
    }
}
