package io.objectstreams.web.subscription;

import io.objectstreams.feed.TransportSettings;

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

    static SubscriptionLimits of(TransportSettings settings) {
        return new SubscriptionLimits(settings.maxSubscriptions(), settings.maxMemberPks(),
                settings.maxConnectionMemberPks(), settings.maxConnectionBytes(), settings.replayLimit());
    }
}
