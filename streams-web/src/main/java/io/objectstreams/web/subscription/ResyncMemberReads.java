package io.objectstreams.web.subscription;

import io.objectstreams.web.visibility.Scope;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.feed.LaterDeletes;
import io.objectstreams.feed.SubscriptionSettings;
import io.objectstreams.web.visibility.Visibility;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads again the members of subscriptions told to resync: the client refetches once told, so it then holds what the
 * server's set holds, and later events classify alike for both (G9, G10). Object subscriptions are read together per
 * (model, filter), as fan-out reads them; each set subscription's members are one query.
 */
final class ResyncMemberReads {

    private static final Logger LOG = Logger.getLogger(ResyncMemberReads.class.getName());

    private final Visibility visibility;
    private final DeletesAfter deletes;
    private final int maxMemberPks;

    ResyncMemberReads(Visibility visibility, DeletesAfter deletes, int maxMemberPks) {
        this.visibility = visibility;
        this.deletes = deletes;
        this.maxMemberPks = maxMemberPks;
    }

    /**
     * The members of each subscription read now; a subscription whose scope could not be read is absent. A filter or
     * model subscription that now matches more than {@code streams.subscriptions.max-member-pks} objects is ended with
     * {@code subscription_too_large}, and is absent too. The members are those of the resync's {@code cursor}: a pk
     * deleted after it and created again since is left out, and the later create adds it.
     */
    Map<Subscription, Set<String>> read(Map<StreamSession, ? extends Collection<Subscription>> owed, long cursor) {
        Map<Scope, Set<String>> objectPks = new HashMap<>();
        Set<Scope> sets = new HashSet<>();
        for (Collection<Subscription> subscriptions : owed.values()) {
            for (Subscription subscription : subscriptions) {
                if (subscription.request().isObject()) {
                    objectPks.computeIfAbsent(subscription.scope(), k -> new HashSet<>())
                            .add(subscription.request().pk());
                } else {
                    sets.add(subscription.scope());
                }
            }
        }
        Map<Scope, Set<String>> visibleObjects = asOf(visibleObjects(objectPks), cursor);
        Map<Scope, Set<String>> setMembers = asOf(setMembers(sets), cursor);
        Map<Subscription, Set<String>> members = new HashMap<>();
        owed.forEach((session, subscriptions) -> {
            for (Subscription subscription : subscriptions) {
                if (subscription.request().isObject()) {
                    Set<String> visible = visibleObjects.get(subscription.scope());
                    if (visible != null) {
                        String pk = subscription.request().pk();
                        members.put(subscription, visible.contains(pk) ? Set.of(pk) : Set.of());
                    }
                } else {
                    Set<String> current = setMembers.get(subscription.scope());
                    if (current != null && current.size() > maxMemberPks) {
                        session.end(subscription, tooLarge(subscription));
                    } else if (current != null) {
                        members.put(subscription, current);
                    }
                }
            }
        });
        return members;
    }

    /**
     * Each scope's pks without those deleted after {@code cursor}, read once per model (not per scope: a resync of
     * thousands of viewers is one outbox query); a scope whose model's deletes cannot be read is absent.
     */
    private Map<Scope, Set<String>> asOf(Map<Scope, Set<String>> read, long cursor) {
        Map<String, LaterDeletes> byModel = new HashMap<>();
        Map<Scope, Set<String>> kept = new HashMap<>();
        read.forEach((scope, pks) -> {
            LaterDeletes deleted = byModel.computeIfAbsent(scope.model(), model -> {
                try {
                    return deletes.read(model, null, cursor);
                } catch (SQLException e) {
                    LOG.log(Level.WARNING, "Could not read which " + model + " objects were deleted after cursor "
                            + cursor + "; their subscriptions are read again at the next batch", e);
                    return null;
                }
            });
            if (deleted != null) {
                Set<String> left = new HashSet<>(pks);
                left.removeIf(deleted::contains);
                kept.put(scope, deleted.none() ? pks : left);
            }
        });
        return kept;
    }

    private Map<Scope, Set<String>> visibleObjects(Map<Scope, Set<String>> pksByScope) {
        return visibility.matching(pksByScope, (model, e) -> LOG.log(Level.WARNING, "Could not read again which "
                + model + " objects are visible; their subscriptions are read again at the next batch", e));
    }

    private Map<Scope, Set<String>> setMembers(Set<Scope> scopes) {
        Map<Scope, Set<String>> read = new HashMap<>();
        for (Scope scope : scopes) {
            try {
                read.put(scope, visibility.members(scope, maxMemberPks));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not read again the members of a " + scope.model() + " subscription;"
                        + " it is read again at the next batch", e);
            }
        }
        return read;
    }

    private ProtocolError tooLarge(Subscription subscription) {
        return ProtocolError.limit(ErrorCode.SUBSCRIPTION_TOO_LARGE, SubscriptionSettings.MAX_MEMBER_PKS.key(),
                "Subscription " + subscription.id() + " now matches more than " + maxMemberPks + " objects ("
                + SubscriptionSettings.MAX_MEMBER_PKS.key() + ") and has ended; narrow the filter",
                Messages.JSON.createObjectBuilder().add("subscription_id", subscription.id()));
    }
}
