package io.objectstreams.web.subscription;

import io.objectstreams.StreamBatch;
import io.objectstreams.StreamGap;
import io.objectstreams.Viewer;
import io.objectstreams.feed.ProcessLimits;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.internal.delivery.DeliveryTargets;
import io.objectstreams.internal.health.HealthRegistry;
import io.objectstreams.internal.health.SessionReport;
import io.objectstreams.internal.health.TransportCounts;
import io.objectstreams.feed.DeliveryTelemetry;
import io.objectstreams.web.visibility.Visibility;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * This instance's connections, whatever the transport: admits and forgets them, owns the byte budget and the sender
 * pool their queues share, hands each batch and gap to the fan-out with the sessions open now, and reports on them.
 * The transports call this; it calls the sessions and the fan-out, and nothing calls back into it.
 */
@ApplicationScoped
public class ConnectionRegistry {

    @Inject
    Visibility visibility;

    @Inject
    StreamsFeed feed;

    @Inject
    DeliveryTelemetry telemetry;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    private final Map<Subscriber, StreamSession> sessions = new ConcurrentHashMap<>();
    private DeliveryCounts counts;
    private final FanOutLedger ledger = new FanOutLedger();
    private final DispatchIndex index = new DispatchIndex();
    private final Supplier<SessionReport> reportSource = this::report;
    private final Supplier<TransportCounts> countsSource = () -> counts.transportCounts();
    /** What the listener hands batches and gaps to; the same instance is unregistered at stop. */
    private final DeliveryTargets.Target target = new Target();
    private Admission admission;
    private OutboundBudget budget;
    private SubscriptionLimits limits;
    private ServerTally tally;
    private ReplayPlanner planner;
    private BatchFanOut fanOut;

    /**
     * Sends queued messages, off the delivery thread: a send costs the container real work, which must not hold up
     * the next batch. A plain pool over container-made threads: no context capture per task.
     */
    private ExecutorService senders;

    /** Runs the clients' requests off the transports' threads ({@link RequestQueue}). */
    private ExecutorService starters;
    private int maxPendingRequests;

    @PostConstruct
    void start() {
        TransportSettings settings = feed.settings();
        counts = new DeliveryCounts(telemetry::sent);
        senders = pool(settings.senderThreads());
        starters = pool(settings.subscriptions().startThreads());
        maxPendingRequests = settings.subscriptions().maxPendingRequests();
        admission = Admission.of(settings.connections(), ProcessLimits.now());
        budget = new OutboundBudget(settings.maxConnectionBytes(), settings.maxServerBytes(), sessions::size);
        limits = SubscriptionLimits.of(settings);
        tally = new ServerTally(settings.maxScopes(), settings.maxTotalMemberPks());
        planner = new ReplayPlanner(visibility, feed, limits);
        fanOut = new BatchFanOut(visibility, index, feed::rowsAfter, ledger,
                new ResyncMemberReads(visibility, feed::deletedAfter, limits.maxMemberPks()));
        HealthRegistry.application().register(HealthRegistry.SESSIONS, reportSource);
        HealthRegistry.application().register(HealthRegistry.TRANSPORTS, countsSource);
        // From here on the listener hands this registry every batch and gap itself, not through CDI. It is created
        // with the first connection, so no session can exist before it is registered. (Created eagerly with the
        // application instead, a bad setting failed deployment inside CDI, hiding the key it names: G14.)
        DeliveryTargets.application().register(target);
    }

    /** A plain pool over container-made threads: no context capture per task. */
    private ExecutorService pool(int count) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(count, count, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @PreDestroy
    void stop() {
        DeliveryTargets.application().unregister(target);
        HealthRegistry.application().unregister(HealthRegistry.SESSIONS, reportSource);
        HealthRegistry.application().unregister(HealthRegistry.TRANSPORTS, countsSource);
        senders.shutdownNow();
        starters.shutdownNow();
    }

    /**
     * Registers a new connection of any transport, or refuses it ({@code connection_limit_exceeded}) when this instance
     * holds {@code streams.connections.max} connections, the viewer {@code streams.connections.max-per-principal}, or
     * the process cannot hold another ({@link Admission}). A refused connection holds nothing, and neither does one
     * whose session could not be made.
     */
    public StreamSession open(Subscriber subscriber, Viewer viewer) throws ProtocolError {
        admission.admit(viewer);
        StreamSession session;
        try {
            OutboundQueue outbound = new OutboundQueue(subscriber, budget, senders, counts);
            session = new StreamSession(subscriber, viewer, outbound, planner, ledger, feed::deliveredCursor, limits,
                    counts, tally, index);
        } catch (RuntimeException | Error e) {
            admission.release(viewer);
            throw e;
        }
        sessions.put(subscriber, session);
        counts.opened(subscriber.transport());
        if (subscriber.transport().equals("sse")) {
            counts.sseSession(1);
        }
        return session;
    }

    /**
     * A new connection's queue of requests, run in order on the start threads, holding at most
     * {@code maxPendingChars} characters of the client's text besides the first request.
     */
    public RequestQueue requestQueue(long maxPendingChars) {
        return new RequestQueue(starters, maxPendingRequests, maxPendingChars);
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
            if (subscriber.transport().equals("sse")) {
                counts.sseSession(-1);
            }
            session.closed();
            ledger.forget(session);
            admission.release(session.viewer());
        }
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

    /** Counts a request or connection a transport refused before any session could (an HTTP or handshake refusal). */
    public void refused(ProtocolError refusal) {
        counts.refused(refusal.code().wireName(), refusal.setting());
    }

    /**
     * What the transports did since start: connections that ended by {@code transport.cause} (how the server let them
     * go, or how they broke), and refusals by code and by the setting whose limit refused them.
     */
    public TransportCounts transportCounts() {
        return counts.transportCounts();
    }

    private final class Target implements DeliveryTargets.Target {
        @Override
        public void batch(StreamBatch batch) {
            long start = System.nanoTime();
            fanOut.batch(batch, sessions.values(), ConnectionRegistry.this::endUntold);
            telemetry.fannedOut(start, batch.events());
        }

        @Override
        public void gap(StreamGap gap) {
            fanOut.gap(gap, sessions.values(), ConnectionRegistry.this::endUntold);
        }
    }

    /** A session the fan-out could not tell what it missed: forgotten before its client is disconnected. */
    private void endUntold(StreamSession session) {
        close(session.subscriber());
    }

    /**
     * This instance's connections, queues and counts since start, for health data and operators: kept as they change,
     * so that a probe costs the same whatever the number of connections.
     */
    public SessionReport report() {
        return new SessionReport(sessions.size(), counts.sseSessions(), counts.subscriptions(),
                counts.sseSubscriptions(), (int) budget.queuedMessages(), budget.queuedBytes(), budget.maxServerBytes(),
                counts.droppedEvents(), fanOut.failedBatches(), counts.deliveredEvents(), counts.resyncsByReason());
    }
}
