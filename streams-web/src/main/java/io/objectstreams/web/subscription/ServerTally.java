package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.Scope;
import io.objectstreams.feed.SubscriptionSettings;
import io.objectstreams.protocol.ErrorCode;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the subscriptions of all connections of this instance hold together, bounded server-wide (G15): the distinct
 * scopes, each of which may cost a membership query per batch ({@code streams.subscriptions.max-scopes}), and the
 * member pks, each of which costs heap ({@code streams.subscriptions.max-total-member-pks}). Per-connection and
 * per-principal limits alone multiply: see docs/configuration.md for the arithmetic.
 */
final class ServerTally {

    private final int maxScopes;
    private final long maxMemberPks;
    private final Map<Scope, Integer> scopes = new HashMap<>();
    private final AtomicLong memberPks = new AtomicLong();

    ServerTally(int maxScopes, long maxMemberPks) {
        this.maxScopes = maxScopes;
        this.maxMemberPks = maxMemberPks;
    }

    /** No bounds: for tests of other rules. */
    static ServerTally unbounded() {
        return new ServerTally(Integer.MAX_VALUE, Long.MAX_VALUE);
    }

    /** Takes one hold on {@code scope}, or refuses a new scope when the instance holds its maximum. */
    synchronized void hold(Scope scope) throws ProtocolError {
        Integer held = scopes.get(scope);
        if (held == null && scopes.size() >= maxScopes) {
            throw ProtocolError.limit(ErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED, SubscriptionSettings.MAX_SCOPES.key(),
                    "This server holds its maximum of "
                    + maxScopes + " distinct subscription scopes (" + SubscriptionSettings.MAX_SCOPES.key()
                    + "); subscribe to a filter others use, or try again later");
        }
        scopes.put(scope, held == null ? 1 : held + 1);
    }

    synchronized void release(Scope scope) {
        scopes.computeIfPresent(scope, (s, held) -> held <= 1 ? null : held - 1);
    }

    /** Refuses a subscription whose {@code adding} members would take the instance past its total. */
    void checkMembers(int adding) throws ProtocolError {
        long held = memberPks.get();
        if (held + adding > maxMemberPks) {
            throw ProtocolError.limit(ErrorCode.MEMBER_LIMIT_EXCEEDED, SubscriptionSettings.MAX_TOTAL_MEMBER_PKS.key(),
                    "This subscription would hold " + adding
                    + " objects and this server's subscriptions already hold " + held + "; together they may hold "
                    + maxMemberPks + " (" + SubscriptionSettings.MAX_TOTAL_MEMBER_PKS.key() + "). Narrow the filter,"
                    + " or try again later");
        }
    }

    /** Records that subscriptions now hold {@code delta} more (or fewer) members. */
    void members(long delta) {
        memberPks.addAndGet(delta);
    }

    synchronized int scopes() {
        return scopes.size();
    }

    long memberPks() {
        return memberPks.get();
    }
}
