package io.objectstreams.web.subscription;

import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.EventOperation;
import io.objectstreams.StreamEvent;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.CursorState;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.SubscriptionSettings;
import io.objectstreams.protocol.ResyncReason;
import io.objectstreams.protocol.SubscriptionKind;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.filter.FilterDeclarations;
import io.objectstreams.web.filter.InvalidFilterException;
import io.objectstreams.web.visibility.DecidingAttributes;
import io.objectstreams.web.visibility.Scope;
import io.objectstreams.web.visibility.SubjectKeys;
import io.objectstreams.web.visibility.Visibility;
import jakarta.json.JsonObjectBuilder;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Reads what a new subscription starts with: its validated filter, its members, and for a client's cursor what it
 * missed, which {@link ReplayClassification} then classifies (G9, G10). Reads the database, never touches a session:
 * the session applies what this returns.
 */
class ReplayPlanner {

    private static final Logger LOG = Logger.getLogger(ReplayPlanner.class.getName());
    private static final RateLimitedLog FAILURES = new RateLimitedLog(Duration.ofMinutes(1));

    private final Visibility visibility;
    private final StreamsFeed feed;
    private final SubscriptionLimits limits;
    private final ModelReplayReads replays;
    private final StartReadsByCursor shared = new StartReadsByCursor();
    private final StartMemberReads members;
    private final DeletesAfter deletes;
    private final DecidingAttributes attributes;
    private static final Object NOT_KEYED = new Object();

    ReplayPlanner(Visibility visibility, StreamsFeed feed, SubscriptionLimits limits) {
        this.visibility = visibility;
        this.feed = feed;
        this.limits = limits;
        this.deletes = (model, pks, after) -> feed.deletedAfter(model, pks, after);
        this.attributes = new DecidingAttributes(visibility);
        this.replays = new ModelReplayReads(feed);
        this.members = new StartMemberReads(visibility, feed, limits, shared);
    }

    /**
     * Checks that the viewer may subscribe as asked and returns the validated filter: the model must have a
     * policy, a filter must pass its model's declarations. Whether an object is visible is decided by
     * {@link #start}, after registration.
     */
    Filter filter(SubscribeRequest request) throws ProtocolError {
        VisibilityPolicy<?> policy = visibility.policy(request.model()).orElseThrow(() -> new ProtocolError(
                ErrorCode.NOT_FOUND, "There is no subscribable model " + ProtocolError.quoted(request.model())));
        if (request.kind() != SubscriptionKind.FILTER) {
            return Filter.NONE;
        }
        try {
            return FilterDeclarations.parse(policy.entity(), request.filter());
        } catch (InvalidFilterException invalid) {
            JsonObjectBuilder details = Messages.JSON.createObjectBuilder();
            invalid.errors().forEach((key, messages) -> details.add(key, Messages.JSON.createArrayBuilder(messages)));
            throw new ProtocolError(ErrorCode.INVALID_FILTER, "Subscription filters are invalid.", details.build());
        }
    }

    /** What the subscription asks visibility; under a keyed policy, with the keys its viewer holds now. */
    Scope scope(Viewer viewer, SubscribeRequest request, Filter filter) {
        return visibility.scope(viewer, request.model(), filter);
    }

    /**
     * The request with its pk and members spelled as the model's events spell them: {@code "007"} names the order
     * whose events say {@code "7"}, and must follow them.
     */
    SubscribeRequest canonical(SubscribeRequest request) {
        if (request.pk() == null && request.members() == null) {
            return request;
        }
        // A pk that can be no key keeps its spelling: it names nothing, and is answered so.
        return request.canonical(pk -> Objects.requireNonNullElse(visibility.canonicalPk(request.model(), pk), pk));
    }

    /**
     * What a subscription registered at {@code cursor} starts with: the members of a filter or model subscription
     * (at most {@code streams.subscriptions.max-member-pks}), and for a client cursor its replay or resync reason.
     */
    SubscriptionStart start(Subscription subscription, long cursor) throws ProtocolError {
        SubscribeRequest request = subscription.request();
        try {
            // Each read below takes and returns its own pooled connection: holding one while the membership query
            // waits for another would let concurrent subscribes exhaust the pool and wait on each other.
            Long from = request.cursor();
            // The outbox's state matters only to a client cursor. A set's cursor older than the registration cursor is
            // not ahead, and its replay reads the state after reading the rows, which covers a prune before too.
            CursorState state = from == null || !request.isObject() && from < cursor ? null : feed.cursorState();
            if (state != null) {
                ReplayClassification.checkNotAhead(from, state);
            }
            StartMemberReads.Read read = request.isObject()
                    ? new StartMemberReads.Read(visibleObject(subscription))
                    : members.read(subscription, cursor);
            // The members as of the registration cursor: read after them, a pk deleted after that cursor and created
            // again since names another object now, whose create reaches the subscription live (defect 14).
            // A client's cursor ahead of this instance's (another instance delivered more) starts the subscription
            // there.
            Set<String> members = deletes.without(request.model(), read.members(), from == null ? cursor
                    : Math.max(from, cursor));
            if (from == null) {
                return SubscriptionStart.live(members, cursor);
            }
            if (state != null && ReplayClassification.pruned(from, state)) {
                return SubscriptionStart.resync(members, cursor, ResyncReason.CURSOR_PRUNED);
            }
            if (request.isObject() && members.isEmpty()) {
                // The object found visible is not the one its rows through the registration cursor tell of.
                return SubscriptionStart.resync(members, cursor, ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            }
            if (request.isObject()) {
                return replayObject(subscription.scope(), request, members, from, cursor);
            }
            SubscriptionStart start = replaySet(subscription.scope(), request, members, from, cursor);
            if (request.resumesWithoutMembers() && start.resyncReason() == null) {
                // Taken after the members, the deletes that took pks out of them and the replay's rows: a transaction
                // any of them reflects is one this snapshot sees, so its events are checked (Subscription#unaccounted).
                // One taken before the deletes were read would miss a delete that took a listed order out of them.
                subscription.watchUnaccounted(feed.transactionSnapshot());
            }
            return start;
        } catch (SQLException | RuntimeException e) {
            // The database went away mid-subscribe (JDBC, or the persistence provider's queries): the client is told
            // to retry, by the subscription's id; the database's own words (SQL, hosts, users) go to the log only.
            FAILURES.log(LOG, "A subscription to " + request.model() + " could not read how it starts", e);
            throw new ProtocolError(ErrorCode.UNAVAILABLE, "The subscription could not be started; retry shortly");
        }
    }

    /**
     * Replayed only through the registration cursor, before which the object was just found visible; every later
     * event is delivered live, with its own visibility check (G8, G10).
     */
    private SubscriptionStart replayObject(Scope scope, SubscribeRequest request, Set<String> members, long from,
                                           long cursor) throws SQLException {
        int limit = limits.replayLimit();
        List<StreamEvent> missed = feed.subjectBetween(request.model(), request.pk(), from, cursor, limit + 1);
        if (Truncations.any(missed)) {
            return SubscriptionStart.resync(members, cursor, ResyncReason.TRUNCATED);
        }
        if (missed.size() <= limit && ReplayClassification.pruned(from, feed.cursorState())) {
            // Retention ran between the first look and the read: what was read may lack deleted rows (G11).
            return SubscriptionStart.resync(members, cursor, ResyncReason.CURSOR_PRUNED);
        }
        if (missed.size() <= limit && !seenThroughout(scope, request, missed, cursor)) {
            return SubscriptionStart.resync(members, cursor, ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
        }
        return ReplayClassification.object(members, missed, from, cursor, limit);
    }

    /**
     * Whether the viewer, who may see the object now, could see it at every row {@code missed} through the
     * registration cursor: no row since the first of them (those not yet fanned out included, read after the
     * visibility check) deleted the object or changed what its visibility is decided by (G8). Otherwise the rows may
     * be another object's under the same pk, or the object's while another user's. Under a policy whose deciding
     * attributes cannot be told, only deletes count.
     */
    private boolean seenThroughout(Scope scope, SubscribeRequest request, List<StreamEvent> missed, long cursor)
            throws SQLException {
        if (missed.isEmpty() || scope.seesEveryObject()) {
            return true;
        }
        Set<String> deciding = attributes.of(scope);
        List<StreamEvent> since = new ArrayList<>(missed);
        since.addAll(feed.rowsAfter(request.model(), List.of(request.pk()), cursor));
        for (StreamEvent row : since) {
            Set<String> changes = row.op() == EventOperation.CREATED ? Set.of() : BatchSteps.changes(row);
            if (changes.contains(BatchSteps.ANY) || deciding != null && !Collections.disjoint(changes, deciding)) {
                return false;
            }
        }
        return true;
    }

    private SubscriptionStart replaySet(Scope scope, SubscribeRequest request, Set<String> current, long from,
                                        long cursor) throws SQLException, ProtocolError {
        if (request.members() != null && request.members().size() > limits.maxMemberPks()) {
            throw ProtocolError.limit(ErrorCode.SUBSCRIPTION_TOO_LARGE, SubscriptionSettings.MAX_MEMBER_PKS.key(),
                    "members names " + request.members().size() + " pks; at most " + limits.maxMemberPks()
                    + " (" + SubscriptionSettings.MAX_MEMBER_PKS.key() + ")");
        }
        int limit = limits.replayLimit();
        List<StreamEvent> rows = List.of();
        if (from < cursor) {
            if (ReplayClassification.spanTooLong(from, cursor, limit)) {
                return SubscriptionStart.resync(current, cursor, ReplayClassification.pruned(from, feed.cursorState())
                        ? ResyncReason.CURSOR_PRUNED : ResyncReason.CURSOR_REPLAY_UNAVAILABLE);
            }
            rows = replays.modelBetween(request.model(), from, cursor, (int) (cursor - from));
            if (rows == null) {
                return SubscriptionStart.resync(current, cursor, ResyncReason.CURSOR_PRUNED);
            }
            rows = PkSpellings.spelled(rows, visibility::canonicalPk);
            if (Truncations.any(rows)) {
                return SubscriptionStart.resync(current, cursor, ResyncReason.TRUNCATED);
            }
            if (!UndecidablePks.models(rows, visibility::canonicalPk).isEmpty()) {
                return SubscriptionStart.resync(current, cursor, ResyncReason.DELIVERY_FAILED);
            }
        }
        return ReplayClassification.set(rows, current, request.members(),
                // The pks a client names in members are its own: never a key of what subscriptions share. As the
                // members are, the answer is as of the registration cursor (defect 14).
                outside -> asOf(scope.model(), request.members() != null ? visibility.visible(scope, outside)
                        : visible(scope, outside, cursor), Math.max(from, cursor)), attributes.of(scope), from, cursor,
                limit);
    }

    /** {@code pks} without those deleted after {@code cursor}, read after them. */
    private Set<String> asOf(String model, Set<String> pks, long cursor) {
        try {
            return deletes.without(model, pks, cursor);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Could not read which " + model + " objects were deleted after " + cursor, e);
        }
    }

    /**
     * Which of {@code pks} the viewer may read now. Under a keyed policy the subjects' keys are read once for every
     * subscription registered at {@code cursor}, whatever its viewer, and matched in memory; under another policy
     * the answer is read once per (scope, pks) among them.
     */
    @SuppressWarnings("unchecked")
    private Set<String> visible(Scope scope, Set<String> pks, long cursor) {
        List<Object> keysKey = List.of("keys", scope.model(), pks);
        Object keys = shared.get(keysKey, cursor);
        if (keys == null) {
            long readAt = System.nanoTime();
            keys = readSubjectKeys(scope.model(), pks);
            shared.keep(keysKey, cursor, readAt, keys, pks.size());
        }
        if (keys instanceof SubjectKeys subjectKeys) {
            return subjectKeys.admitted(scope, pks);
        }
        List<Object> key = List.of("visible", scope, pks);
        Set<String> kept = (Set<String>) shared.get(key, cursor);
        if (kept != null) {
            return kept;
        }
        long readAt = System.nanoTime();
        Set<String> visible = visibility.visible(scope, pks);
        shared.keep(key, cursor, readAt, visible, pks.size());
        return visible;
    }

    /** The subjects' keys under a keyed policy, or {@link #NOT_KEYED}: then each viewer is asked with its own query. */
    private Object readSubjectKeys(String model, Set<String> pks) {
        try {
            return visibility.subjectKeys(model, pks).map(Object.class::cast).orElse(NOT_KEYED);
        } catch (RuntimeException e) {
            // A key the keyed path cannot compare (the fan-out falls back the same way): one query per viewer instead.
            FAILURES.log(LOG, "The keys of " + model + " could not be read for many viewers at once", e);
            return NOT_KEYED;
        }
    }

    /**
     * The object of an object subscription, checked visible after the subscription registered: what it missed
     * through the registration cursor is older than this check, and everything later is decided live.
     */
    private Set<String> visibleObject(Subscription subscription) throws ProtocolError {
        SubscribeRequest request = subscription.request();
        if (visibility.visible(subscription.scope(), List.of(request.pk())).isEmpty()) {
            throw new ProtocolError(ErrorCode.NOT_FOUND, request.model() + " " + ProtocolError.quoted(request.pk())
                    + " does not exist or is not visible to you");
        }
        return Set.of(request.pk());
    }
}
