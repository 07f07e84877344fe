package io.objectstreams.web.subscription;

import io.objectstreams.feed.ConnectionSettings;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.feed.WebSocketSettings;
import io.objectstreams.protocol.ErrorCode;
import java.util.Collection;
import java.util.Set;

/**
 * The limits a connection's subscriptions are held to, whatever the transport (G15); see docs/configuration.md.
 *
 * @param maxSubscriptions       subscriptions one connection may hold
 * @param maxMemberPks           objects one filter or model subscription may hold
 * @param maxConnectionMemberPks objects the subscriptions of one connection may hold together
 * @param maxConnectionBytes     bytes queued for one connection, which also bounds what a starting subscription
 *                               buffers
 * @param replayLimit            events an object replay, or changed subjects a set replay, may send
 */
record SubscriptionLimits(int maxSubscriptions, int maxMemberPks, int maxConnectionMemberPks, long maxConnectionBytes,
                          int replayLimit) {

    /**
     * Refuses subscription {@code id} on a connection whose subscriptions are {@code active}: the id is taken
     * ({@code duplicate_subscription}), or the connection holds its most ({@code subscription_limit_exceeded}).
     */
    void checkSubscriptionRoom(String id, Set<String> active) throws ProtocolError {
        if (active.contains(id)) {
            throw new ProtocolError(ErrorCode.DUPLICATE_SUBSCRIPTION, "Subscription " + ProtocolError.quoted(id)
                    + " is already active");
        }
        int held = active.size();
        if (held >= maxSubscriptions) {
            String setting = WebSocketSettings.MAX_SUBSCRIPTIONS.key();
            throw ProtocolError.limit(ErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED, setting,
                    "This connection already holds " + held + " subscriptions (" + setting + ")");
        }
    }

    /** Refuses a subscription of {@code adding} objects where the connection's {@code subscriptions} hold too many. */
    void checkMemberRoom(Collection<Subscription> subscriptions, int adding) throws ProtocolError {
        int held = subscriptions.stream().mapToInt(Subscription::memberCount).sum();
        if (held + adding > maxConnectionMemberPks) {
            throw ProtocolError.limit(ErrorCode.MEMBER_LIMIT_EXCEEDED, ConnectionSettings.MAX_MEMBER_PKS.key(),
                    "This subscription would hold " + adding
                    + " objects and this connection's subscriptions already hold " + held + "; together they may hold "
                    + maxConnectionMemberPks + " (" + ConnectionSettings.MAX_MEMBER_PKS.key()
                    + "). Unsubscribe or narrow a filter");
        }
    }

    static SubscriptionLimits of(TransportSettings settings) {
        return new SubscriptionLimits(settings.maxSubscriptions(), settings.maxMemberPks(),
                settings.maxConnectionMemberPks(), settings.maxConnectionBytes(), settings.replayLimit());
    }
}
