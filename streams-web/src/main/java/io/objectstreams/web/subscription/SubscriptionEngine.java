package io.objectstreams.web.subscription;

import io.objectstreams.EventOperation;
import io.objectstreams.ObjectRef;
import io.objectstreams.StreamBatch;
import io.objectstreams.StreamEvent;
import io.objectstreams.StreamGap;
import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.CursorState;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.internal.health.SessionReport;
import io.objectstreams.web.filter.Filter;
import io.objectstreams.web.filter.FilterDeclarations;
import io.objectstreams.web.filter.InvalidFilterException;
import io.objectstreams.web.visibility.Visibility;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The subscription engine, whatever the transport: owns this instance's connections ({@link StreamSession}),
 * validates and starts subscriptions, and turns each {@link StreamBatch} into subscription-relative messages
 * (G8, G9), rendered once per batch and variant and queued within a byte budget (G15).
 *
 * <p>Cost per batch: the subscriptions an event may concern are grouped by (viewer, model, filter), and each
 * group costs one query for all of the batch's subjects it touches, whatever the number of subscriptions and
 * connections sharing it.
 *
 * <p>Never silent (G10): when a group's query fails, or the fan-out of a batch fails altogether, every
 * subscription that may have been owed an event of that batch gets {@code resync_required} with reason
 * {@value #DELIVERY_FAILED} before anything later is sent to it.
 */
@ApplicationScoped
public class SubscriptionEngine {

    private static final Logger LOG = Logger.getLogger(SubscriptionEngine.class.getName());

    /** The resync reason when the server could not decide what a batch meant for a subscription. */
    public static final String DELIVERY_FAILED = "delivery_failed";

    /** The resync reason when events a subscription is owed were deleted by retention (G11). */
    public static final String CURSOR_PRUNED = "cursor_pruned";

    @Inject
    Visibility visibility;

    @Inject
    StreamsFeed feed;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    private final Map<Subscriber, StreamSession> sessions = new ConcurrentHashMap<>();
    /** Connections admitted and not yet closed; {@link #sessions} may briefly lag behind it. */
    private final AtomicInteger connections = new AtomicInteger();
    /** Open connections per authenticated principal, for {@code streams.connections.max-per-principal}. */
    private final Map<String, Integer> byPrincipal = new ConcurrentHashMap<>();

    /** Held while a batch is fanned out, and while a subscription joins: a batch sees a subscription entirely or not at all. */
    private final Object fanOut = new Object();
    private long fannedOutThrough;
    private final AtomicLong failedBatches = new AtomicLong();
    /** Subscriptions told to resync whose members could not be read again yet; read at the next batch. */
    private final Set<Owed> stale = ConcurrentHashMap.newKeySet();
    private final DeliveryCounts counts = new DeliveryCounts();
    private final Supplier<SessionReport> reportSource = this::report;
    private OutboundBudget budget;
    private TransportSettings settings;

    /**
     * Starts the sending of queued messages, off the delivery thread. A send costs the container real work (on
     * Payara each one reschedules the session's idle timer through a context-capturing executor), which must
     * not hold up the next batch. Plain pool over container-made threads: no context capture per task.
     */
    private ExecutorService senders;

    /** How a new subscription starts: its members, from which cursor it is live, what to replay, whether to resync. */
    record Start(Set<String> members, long replayFrom, List<StreamSession.Delivery> replay, String resyncReason) {
    }

    @PostConstruct
    void start() {
        settings = feed.settings();
        int count = settings.senderThreads();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(count, count, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
        senders = pool;
        budget = new OutboundBudget(settings.maxConnectionBytes(), settings.maxServerBytes(), sessions::size);
        HealthRegistry.application().register(HealthRegistry.SESSIONS, reportSource);
    }

    @PreDestroy
    void stop() {
        HealthRegistry.application().unregister(HealthRegistry.SESSIONS, reportSource);
        senders.shutdownNow();
    }

    /**
     * Registers a new connection of any transport, or refuses it ({@code connection_limit_exceeded}) when this
     * instance holds {@code streams.connections.max} connections, or the viewer
     * {@code streams.connections.max-per-principal}. A refused connection holds nothing.
     */
    public StreamSession open(Subscriber subscriber, Viewer viewer) throws ProtocolError {
        admit(viewer);
        StreamSession session = new StreamSession(subscriber, viewer, this, new OutboundQueue(subscriber, budget, senders, counts));
        sessions.put(subscriber, session);
        return session;
    }

    /**
     * Forgets a connection that ended, and counts why, by transport ({@code cause} {@code null}: not known), for
     * the operators' status.
     */
    public void close(Subscriber subscriber, String cause) {
        if (subscriber != null && sessions.containsKey(subscriber)) {
            counts.ended(subscriber.transport(), cause == null ? "unknown" : cause);
        }
        close(subscriber);
    }

    /** Forgets a connection that ended, and what was queued for it. */
    public void close(Subscriber subscriber) {
        StreamSession session = subscriber == null ? null : sessions.remove(subscriber);
        if (session != null) {
            session.closed();
            if (!stale.isEmpty()) {
                stale.removeIf(owed -> owed.session() == session);
            }
            release(session.viewer());
        }
    }

    private void admit(Viewer viewer) throws ProtocolError {
        if (connections.incrementAndGet() > settings.maxConnections()) {
            connections.decrementAndGet();
            throw new ProtocolError(ProtocolError.CONNECTION_LIMIT_EXCEEDED, "This server holds its maximum of "
                    + settings.maxConnections() + " connections (streams.connections.max); try again later");
        }
        if (viewer.isAnonymous()) {
            return;
        }
        int max = settings.maxConnectionsPerPrincipal();
        boolean[] full = {false};
        // An entry exists only while its principal is connected: nothing here grows with the number of users.
        byPrincipal.compute(viewer.name(), (name, held) -> {
            int count = held == null ? 0 : held;
            if (count >= max) {
                full[0] = true;
                return held;
            }
            return count + 1;
        });
        if (full[0]) {
            connections.decrementAndGet();
            throw new ProtocolError(ProtocolError.CONNECTION_LIMIT_EXCEEDED, "You already hold " + max
                    + " connections to this server (streams.connections.max-per-principal); close one first");
        }
    }

    private void release(Viewer viewer) {
        connections.decrementAndGet();
        if (!viewer.isAnonymous()) {
            byPrincipal.computeIfPresent(viewer.name(), (name, held) -> held <= 1 ? null : held - 1);
        }
    }

    int maxConnectionMemberPks() {
        return settings.maxConnectionMemberPks();
    }

    int maxSubscriptions() {
        return settings.maxSubscriptions();
    }

    long maxConnectionBytes() {
        return budget.maxConnectionBytes();
    }

    /**
     * Checks that the viewer may subscribe as asked and returns the validated filter: the model must have a
     * policy, a filter must pass its model's declarations. Whether an object is visible is decided by
     * {@link #start}, after registration.
     */
    Filter filter(Viewer viewer, SubscribeRequest request) throws ProtocolError {
        VisibilityPolicy<?> policy = visibility.policy(request.model()).orElseThrow(() -> new ProtocolError(
                ProtocolError.NOT_FOUND, "There is no subscribable model " + request.model()));
        switch (request.kind()) {
            case "filter":
                try {
                    return FilterDeclarations.parse(policy.entity(), request.filter());
                } catch (InvalidFilterException invalid) {
                    JsonObjectBuilder details = Messages.JSON.createObjectBuilder();
                    invalid.errors().forEach((key, messages) -> details.add(key, Messages.JSON.createArrayBuilder(messages)));
                    throw new ProtocolError(ProtocolError.INVALID_FILTER, "Subscription filters are invalid.",
                            details.build());
                }
            default:
                return Filter.NONE;
        }
    }

    /**
     * Adds a subscription to its connection between two batches and returns the cursor it starts from: every
     * batch through it has been fanned out without the subscription, every later one will reach it.
     */
    long register(StreamSession session, Subscription subscription) throws ProtocolError {
        if (feed.deliveredCursor() < 0) {
            // Registered now, the subscription would start at a cursor delivery may later jump past (G10).
            throw new ProtocolError(ProtocolError.UNAVAILABLE, "This server has not reached the database since it"
                    + " started, so it cannot tell where your subscription would start; retry shortly");
        }
        synchronized (fanOut) {
            session.add(subscription);
            return Math.max(fannedOutThrough, feed.deliveredCursor());
        }
    }

    /**
     * Reads what a subscription starts with: the members of a filter or model subscription (at most
     * {@code streams.websocket.max-member-pks}), and for a client cursor the object's missed events (G10) or
     * the resync reason.
     */
    Start start(Viewer viewer, Subscription subscription, long cursor) throws ProtocolError {
        SubscribeRequest request = subscription.request();
        try {
            // Each read below takes and returns its own pooled connection: holding one while the membership query
            // waits for another would let concurrent subscribes exhaust the pool and wait on each other.
            CursorState state = feed.cursorState();
            Long from = request.cursor();
            if (from != null && from > state.lastCursor()) {
                throw new ProtocolError(ProtocolError.INVALID_CURSOR, "Cursor " + from
                        + " is newer than the outbox (last cursor " + state.lastCursor() + ")");
            }
            Set<String> members = request.isObject() ? visibleObject(viewer, request) : members(viewer, subscription);
            if (from == null) {
                return new Start(members, cursor, List.of(), null);
            }
            if (from < state.prunedThrough()) {
                return new Start(members, cursor, List.of(), CURSOR_PRUNED);
            }
            if (!request.isObject()) {
                if (request.members() != null && request.members().size() > settings.maxMemberPks()) {
                    throw new ProtocolError(ProtocolError.SUBSCRIPTION_TOO_LARGE, "members names "
                            + request.members().size() + " pks; at most " + settings.maxMemberPks()
                            + " (streams.websocket.max-member-pks)");
                }
                return from < cursor ? replaySet(viewer, subscription, members, from, cursor)
                        : new Start(request.members() != null ? request.members() : members, from, List.of(), null);
            }
            // Replayed only through the registration cursor, before which the object was just found visible; every
            // later event is delivered live, with its own visibility check (G8, G10).
            int limit = settings.replayLimit();
            List<StreamEvent> missed = feed.subjectBetween(request.model(), request.pk(), from, cursor, limit + 1);
            if (missed.size() > limit) {
                return new Start(members, cursor, List.of(), "object_replay_limit_exceeded");
            }
            if (from < feed.cursorState().prunedThrough()) {
                // Retention ran between the first look and the read: what was read may lack deleted rows (G11).
                return new Start(members, cursor, List.of(), CURSOR_PRUNED);
            }
            return new Start(members, from, missed.stream().map(e -> new StreamSession.Delivery(e, true)).toList(), null);
        } catch (SQLException e) {
            throw new ProtocolError(ProtocolError.INVALID_REQUEST, "The subscription could not be started: "
                    + e.getMessage() + "; retry shortly");
        }
    }

    /** How many rows (of every model) a filter or model replay may read, per {@code streams.replay-limit}. */
    static final int REPLAY_SCAN_FACTOR = 10;

    /**
     * What a filter or model subscription resuming from {@code from} missed through the registration
     * {@code cursor}: each subject of its model that changed, once, at its latest cursor (G10). With the client's
     * {@code members}, every changed subject is classified exactly from them; without, only what names no object
     * the viewer cannot read now, and otherwise the subscription resyncs ({@code cursor_replay_unavailable}).
     */
    private Start replaySet(Viewer viewer, Subscription subscription, Set<String> current, long from, long cursor)
            throws SQLException {
        SubscribeRequest request = subscription.request();
        int limit = settings.replayLimit();
        // Cursors have no holes: the span is the number of rows committed since the client's cursor.
        long span = cursor - from;
        if (span > (long) limit * REPLAY_SCAN_FACTOR) {
            return new Start(current, cursor, List.of(), "cursor_replay_unavailable");
        }
        List<StreamEvent> rows = feed.modelBetween(request.model(), from, cursor, (int) span);
        if (from < feed.cursorState().prunedThrough()) {
            return new Start(current, cursor, List.of(), CURSOR_PRUNED);
        }
        Map<String, ChangedSubject> changed = ChangedSubject.coalesce(rows);
        if (changed.size() > limit) {
            return new Start(current, cursor, List.of(), "cursor_replay_unavailable");
        }
        List<ChangedSubject> inOrder = changed.values().stream()
                .sorted(java.util.Comparator.comparingLong(c -> c.event().cursor())).toList();
        List<StreamSession.Delivery> replay = new ArrayList<>();
        Set<String> clientHeld = request.members();
        if (clientHeld != null) {
            for (ChangedSubject subject : inOrder) {
                replay.add(new StreamSession.Delivery(subject.event(), !subject.deleted() && current.contains(subject.pk())));
            }
            return new Start(clientHeld, from, replay, null);
        }
        Set<String> outside = new HashSet<>();
        for (ChangedSubject subject : inOrder) {
            if (!subject.deleted() && !current.contains(subject.pk())) {
                outside.add(subject.pk());
            }
        }
        Set<String> visible = outside.isEmpty() ? Set.of()
                : visibility.matching(viewer, request.model(), Filter.NONE, outside);
        Set<String> initial = new HashSet<>(current);
        for (ChangedSubject subject : inOrder) {
            String pk = subject.pk();
            if (subject.createdSince()) {
                // Created after the client's cursor: it cannot hold it, so it is added, or never mentioned.
                initial.remove(pk);
                if (!subject.deleted() && current.contains(pk)) {
                    replay.add(new StreamSession.Delivery(subject.event(), true));
                }
            } else if (subject.deleted() || !current.contains(pk) && !visible.contains(pk)) {
                // Gone, or no longer readable: whether the client held it cannot be known without naming it.
                return new Start(current, cursor, List.of(), "cursor_replay_unavailable");
            } else if (current.contains(pk)) {
                initial.add(pk);
                replay.add(new StreamSession.Delivery(subject.event(), true));
            } else {
                initial.add(pk);
                replay.add(new StreamSession.Delivery(subject.event(), false));
            }
        }
        return new Start(initial, from, replay, null);
    }

    /**
     * The object of an object subscription, checked visible after the subscription registered: what it missed
     * through the registration cursor is older than this check, and everything later is decided live.
     */
    private Set<String> visibleObject(Viewer viewer, SubscribeRequest request) throws ProtocolError {
        if (visibility.matching(viewer, request.model(), Filter.NONE, List.of(request.pk())).isEmpty()) {
            throw new ProtocolError(ProtocolError.NOT_FOUND, request.model() + " " + request.pk()
                    + " does not exist or is not visible to you");
        }
        return Set.of(request.pk());
    }

    private Set<String> members(Viewer viewer, Subscription subscription) throws ProtocolError {
        int max = settings.maxMemberPks();
        Set<String> members = visibility.members(viewer, subscription.model(), subscription.filter(), max);
        if (members.size() > max) {
            throw new ProtocolError(ProtocolError.SUBSCRIPTION_TOO_LARGE, "The subscription matches more than " + max
                    + " objects (streams.websocket.max-member-pks); narrow the filter");
        }
        return members;
    }

    /** Fans a batch out to the connections of this instance; never throws, never skips a subscription silently. */
    void onBatch(@Observes StreamBatch batch) {
        synchronized (fanOut) {
            try {
                if (!sessions.isEmpty()) {
                    fanOut(batch);
                }
            } catch (RuntimeException | Error e) {
                failedBatches.incrementAndGet();
                LOG.log(Level.SEVERE, "Fan-out of cursors " + batch.firstCursor() + ".." + batch.lastCursor()
                        + " failed; the subscriptions it concerned are told to resync (" + DELIVERY_FAILED + ")", e);
                resyncConcerned(batch);
            } finally {
                fannedOutThrough = batch.lastCursor();
            }
        }
    }

    /**
     * Cursors this instance still owed its clients were deleted before it delivered them: every subscription here
     * may have missed some, and is told so through the gap's end (G10, G11).
     */
    void onGap(@Observes StreamGap gap) {
        synchronized (fanOut) {
            Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
            for (StreamSession session : sessions.values()) {
                owed.put(session, session.subscriptions());
            }
            resync(owed, gap.throughCursor(), CURSOR_PRUNED);
            fannedOutThrough = Math.max(fannedOutThrough, gap.throughCursor());
        }
    }

    DeliveryCounts counts() {
        return counts;
    }

    /**
     * Ends every connection of this instance (clients reconnect and resume from their cursors); returns how many
     * there were. For operators and tests of reconnection.
     */
    public int closeAll(String reason) {
        List<StreamSession> open = List.copyOf(sessions.values());
        for (StreamSession session : open) {
            session.subscriber().close(reason, false);
        }
        return open.size();
    }

    /** SSE streams that ended since start, by {@code sse.<cause>}: how the server let them go, or how they broke. */
    public Map<String, Long> endedConnections() {
        return counts.endedByCause();
    }

    private void fanOut(StreamBatch batch) {
        rereadStale();
        List<StreamEvent> events = relevant(batch.events());
        List<Pending> pending = new ArrayList<>();
        // One set of subjects per distinct scope: the scope's hash is computed once, so grouping costs a lookup per
        // delivery, where a set per subscription (merged afterwards) cost an allocation per delivery.
        Map<Scope, Set<String>> toCheck = new HashMap<>();
        for (StreamSession session : sessions.values()) {
            for (StreamEvent event : events) {
                for (Subscription subscription : session.concerned(event)) {
                    pending.add(new Pending(session, subscription, event));
                    toCheck.computeIfAbsent(subscription.scope(), k -> new HashSet<>()).add(event.pk());
                }
            }
        }
        Map<Scope, Set<String>> matching = new HashMap<>();
        toCheck.forEach((scope, pks) -> matching.put(scope, matchingOrNull(scope, pks, batch)));
        EventPayloads payloads = new EventPayloads();
        Map<StreamSession, Set<Subscription>> undecided = new LinkedHashMap<>();
        for (Pending delivery : pending) {
            Set<String> matches = matching.get(delivery.subscription().scope());
            if (matches == null) {
                // Its scope could not be decided: every subscription of that scope is told, once, at the batch's end.
                undecided.computeIfAbsent(delivery.session(), k -> new LinkedHashSet<>()).add(delivery.subscription());
            } else {
                delivery.session().deliver(delivery.subscription(), delivery.event(),
                        matches.contains(delivery.event().pk()), payloads);
            }
        }
        resync(undecided, batch.lastCursor(), DELIVERY_FAILED);
    }

    /**
     * Tells each owed subscription to resync through {@code cursor}, after reading its members again: the client
     * refetches once told, so it then holds what the server's set holds, and later events classify alike for both.
     * A subscription whose members cannot be read now is told all the same, and is read again (and told again) at
     * the next batch.
     */
    private void resync(Map<StreamSession, ? extends Collection<Subscription>> owed, long cursor, String reason) {
        if (owed.isEmpty()) {
            return;
        }
        Map<Subscription, Set<String>> members;
        try {
            members = reread(owed);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "Could not read the members of the subscriptions told to resync (" + reason
                    + "); they are read again at the next batch", e);
            members = Map.of();
        }
        for (Map.Entry<StreamSession, ? extends Collection<Subscription>> entry : owed.entrySet()) {
            StreamSession session = entry.getKey();
            try {
                for (Subscription subscription : entry.getValue()) {
                    session.resync(subscription, cursor, reason, members.get(subscription));
                }
            } catch (RuntimeException | Error e) {
                closeUntold(session, cursor, e);
            }
        }
    }

    /**
     * Reads again the members of the subscriptions whose members could not be read when they were told to
     * resync, and tells each that was read to resync once more, through the last cursor fanned out: the client's
     * refetch after the first resync may be older than the members read now.
     */
    private void rereadStale() {
        if (stale.isEmpty()) {
            return;
        }
        List<Owed> due = List.copyOf(stale);
        stale.removeAll(due);
        Map<StreamSession, List<Subscription>> owed = new LinkedHashMap<>();
        for (Owed entry : due) {
            owed.computeIfAbsent(entry.session(), k -> new ArrayList<>()).add(entry.subscription());
        }
        Map<Subscription, Set<String>> members = reread(owed);
        for (Owed entry : due) {
            Set<String> read = members.get(entry.subscription());
            if (read == null) {
                if (entry.session().holds(entry.subscription())) {
                    stale.add(entry);
                }
            } else {
                try {
                    entry.session().resync(entry.subscription(), fannedOutThrough, entry.subscription().staleReason(), read);
                } catch (RuntimeException | Error e) {
                    closeUntold(entry.session(), fannedOutThrough, e);
                }
            }
        }
    }

    /** Called by a session whose subscription's members must be read again before it can classify events. */
    void rereadLater(StreamSession session, Subscription subscription) {
        stale.add(new Owed(session, subscription));
    }

    /**
     * The members of each subscription read now, one query per distinct scope; a subscription whose scope could not
     * be read is absent. A filter or model subscription that now matches more than
     * {@code streams.websocket.max-member-pks} objects is ended with {@code subscription_too_large}.
     */
    private Map<Subscription, Set<String>> reread(Map<StreamSession, ? extends Collection<Subscription>> owed) {
        Map<Scope, Set<String>> objectPks = new HashMap<>();
        Set<Scope> sets = new HashSet<>();
        for (Collection<Subscription> subscriptions : owed.values()) {
            for (Subscription subscription : subscriptions) {
                if (subscription.request().isObject()) {
                    objectPks.computeIfAbsent(subscription.scope(), k -> new HashSet<>()).add(subscription.request().pk());
                } else {
                    sets.add(subscription.scope());
                }
            }
        }
        int max = settings.maxMemberPks();
        Map<Scope, Set<String>> read = new HashMap<>();
        objectPks.forEach((scope, pks) -> {
            try {
                read.put(scope, visibility.matching(scope.viewer(), scope.model(), scope.filter(), pks));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not read again which " + scope.model() + " objects are visible; their"
                        + " subscriptions are read again at the next batch", e);
            }
        });
        Map<Scope, Set<String>> setMembers = new HashMap<>();
        for (Scope scope : sets) {
            try {
                setMembers.put(scope, visibility.members(scope.viewer(), scope.model(), scope.filter(), max));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Could not read again the members of a " + scope.model() + " subscription;"
                        + " it is read again at the next batch", e);
            }
        }
        Map<Subscription, Set<String>> members = new HashMap<>();
        owed.forEach((session, subscriptions) -> {
            for (Subscription subscription : subscriptions) {
                if (subscription.request().isObject()) {
                    Set<String> visible = read.get(subscription.scope());
                    if (visible != null) {
                        String pk = subscription.request().pk();
                        members.put(subscription, visible.contains(pk) ? Set.of(pk) : Set.of());
                    }
                } else {
                    Set<String> current = setMembers.get(subscription.scope());
                    if (current != null && current.size() > max) {
                        session.end(subscription, new ProtocolError(ProtocolError.SUBSCRIPTION_TOO_LARGE,
                                "Subscription " + subscription.id() + " now matches more than " + max + " objects"
                                        + " (streams.websocket.max-member-pks) and has ended; narrow the filter",
                                Messages.JSON.createObjectBuilder().add("subscription_id", subscription.id()).build()));
                    } else if (current != null) {
                        members.put(subscription, current);
                    }
                }
            }
        });
        return members;
    }

    /**
     * The batch without the events a later delete in the same batch supersedes. Membership is decided against
     * the database as it is now, where a deleted object no longer exists: its earlier events could only be
     * reported as leaving the set. Dropping them, the delete reaches whoever had the object (as {@code deleted}),
     * and an object created and deleted within one batch, which nobody was told about, has no effect.
     */
    private static List<StreamEvent> relevant(List<StreamEvent> batch) {
        Map<ObjectRef, Long> deletedAt = new HashMap<>();
        for (StreamEvent event : batch) {
            if (event.op() == EventOperation.DELETED) {
                deletedAt.put(event.subject(), event.cursor());
            }
        }
        if (deletedAt.isEmpty()) {
            return batch;
        }
        return batch.stream()
                .filter(e -> e.op() == EventOperation.DELETED || e.cursor() > deletedAt.getOrDefault(e.subject(), 0L))
                .toList();
    }

    /** The matching subjects of one scope, or {@code null} when they cannot be decided (never guessed, G8/G10). */
    private Set<String> matchingOrNull(Scope scope, Set<String> pks, StreamBatch batch) {
        try {
            return visibility.matching(scope.viewer(), scope.model(), scope.filter(), pks);
        } catch (RuntimeException e) {
            failedBatches.incrementAndGet();
            LOG.log(Level.WARNING, "Visibility check of " + scope.model() + " for cursors " + batch.firstCursor() + ".."
                    + batch.lastCursor() + " failed; its subscriptions are told to resync (" + DELIVERY_FAILED + ")", e);
            return null;
        }
    }

    /** After a failed fan-out: every subscription an event of the batch may concern resyncs past the batch. */
    private void resyncConcerned(StreamBatch batch) {
        Map<StreamSession, Set<Subscription>> owed = new LinkedHashMap<>();
        for (StreamSession session : sessions.values()) {
            try {
                Set<Subscription> concerned = new LinkedHashSet<>();
                for (StreamEvent event : batch.events()) {
                    concerned.addAll(session.concerned(event));
                }
                if (!concerned.isEmpty()) {
                    owed.put(session, concerned);
                }
            } catch (RuntimeException | Error e) {
                closeUntold(session, batch.lastCursor(), e);
            }
        }
        resync(owed, batch.lastCursor(), DELIVERY_FAILED);
    }

    /**
     * Not even a resync could be queued for a connection: ending it is the only way left to tell the client, which
     * reconnects with its cursor and is replayed or resynced then (G10).
     */
    private void closeUntold(StreamSession session, long cursor, Throwable failure) {
        LOG.log(Level.SEVERE, "Could not tell connection " + session.subscriber().id() + " to resync; closing it", failure);
        close(session.subscriber());
        session.subscriber().close("The server could not deliver cursors up to " + cursor, false);
    }

    /** This instance's connections, queues and counts since start, for health data and operators. */
    public SessionReport report() {
        int subscriptions = 0;
        int sseSubscriptions = 0;
        int queued = 0;
        long dropped = 0;
        int sse = 0;
        for (StreamSession session : sessions.values()) {
            int held = session.subscriptionCount();
            if (session.subscriber().transport().equals("sse")) {
                sse++;
                sseSubscriptions += held;
            }
            subscriptions += held;
            queued += session.queuedMessages();
            dropped += session.droppedEvents();
        }
        return new SessionReport(sessions.size(), sse, subscriptions, sseSubscriptions, queued, budget.queuedBytes(),
                budget.maxServerBytes(), dropped, failedBatches.get(), counts.deliveredEvents(), counts.resyncsByReason());
    }

    private record Pending(StreamSession session, Subscription subscription, StreamEvent event) {
    }

    /** A subscription of a session, owed a fresh read of its members. */
    private record Owed(StreamSession session, Subscription subscription) {
    }
}
