package io.objectstreams.web.socket;

import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.web.subscription.RateLimitedLog;
import io.objectstreams.web.subscription.ConnectionRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * One clock for every open WebSocket connection of the application, for two rules:
 * <ul>
 * <li>{@code streams.websocket.ping-interval}: each connection is pinged that often, and one that has answered
 * nothing (no pong, no message) for two intervals is closed as {@code unresponsive}. A client that vanished
 * without a clean TCP close (a reset, a dropped network, a handshake abandoned half way) can leave the container
 * with a session it never reports closed; both Payara and WildFly do (docs/deployment.md). Such a session would
 * hold its connection slot, its subscriptions and its outbound queue for good. Browsers and other clients answer
 * pings by themselves.</li>
 * <li>{@code streams.websocket.max-idle}: a connection with no message either way for that long is closed as
 * {@code idle}. Kept here rather than by the container, whose timer every ping would reset.</li>
 * </ul>
 */
@ApplicationScoped
public class WebSocketKeepAlive {

    private static final Logger LOG = Logger.getLogger(WebSocketKeepAlive.class.getName());
    private static final RateLimitedLog FAILURES = new RateLimitedLog(Duration.ofMinutes(1));

    /** How often the clock looks at every connection: both rules are kept to within this. */
    static final long TICK_MILLIS = 250;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService timers;

    @Inject
    StreamsFeed feed;

    @Inject
    ConnectionRegistry engine;

    private final Set<WebSocketSubscriber> open = ConcurrentHashMap.newKeySet();
    private long pingNanos;
    private long maxIdleNanos;
    private ScheduledFuture<?> clock;

    @PostConstruct
    void start() {
        TransportSettings settings = feed.settings();
        pingNanos = settings.pingInterval().toNanos();
        maxIdleNanos = settings.maxIdle().toNanos();
        if (pingNanos > 0 || maxIdleNanos > 0) {
            clock = timers.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (clock != null) {
            clock.cancel(false);
        }
        open.clear();
    }

    /** Starts watching a connection that just opened. */
    void watch(WebSocketSubscriber subscriber) {
        if (clock != null) {
            subscriber.nextPing = firstPing(System.nanoTime(), pingNanos);
            open.add(subscriber);
        }
    }

    /**
     * When a connection opened at {@code now} is first pinged: at a random point of its first interval, so that
     * connections opened together (every client reconnecting after a restart, a load test) are pinged spread
     * over the interval, not all in one tick of the clock and again together every interval after. Each ping and
     * its answer cost the server measurable CPU, most on Payara (docs/benchmarks.md has the figures per server), so
     * a thousand connections pinged in one tick would hold the CPU for a noticeable stretch. Whether a connection is
     * unresponsive depends only on when it was last heard from, so an earlier first ping changes nothing there.
     */
    static long firstPing(long now, long intervalNanos) {
        return intervalNanos <= 0 ? now : now + ThreadLocalRandom.current().nextLong(1, intervalNanos + 1);
    }

    /** Stops watching a connection that ended. */
    void forget(WebSocketSubscriber subscriber) {
        open.remove(subscriber);
    }

    /**
     * Never throws: a periodic task that throws is never run again. A connection is unresponsive once more than
     * two intervals passed since it was last heard from: it had two pings by then, the last a whole interval
     * before, and answered neither.
     */
    private void tick() {
        long now = System.nanoTime();
        for (WebSocketSubscriber subscriber : open) {
            try {
                if (maxIdleNanos > 0 && subscriber.inactiveFor(now, maxIdleNanos)) {
                    end(subscriber, "idle", CloseCodes.GOING_AWAY, "Idle for longer than streams.websocket.max-idle");
                } else if (pingNanos > 0 && subscriber.unheardFor(now, 2 * pingNanos)) {
                    end(subscriber, "unresponsive", CloseCodes.VIOLATED_POLICY,
                            "No answer to two pings (streams.websocket.ping-interval)");
                } else if (pingNanos > 0 && now - subscriber.nextPing >= 0) {
                    subscriber.nextPing = now + pingNanos;
                    if (!subscriber.ping()) {
                        end(subscriber, "ping_failed", CloseCodes.UNEXPECTED_CONDITION, "The ping could not be sent");
                    }
                }
            } catch (RuntimeException e) {
                // The client is owed a closed connection, so that it reconnects with its cursor: never a session
                // that stays open with nothing behind it.
                FAILURES.log(LOG, "Watching WebSocket connection " + subscriber.id() + " failed; it is closed", e);
                end(subscriber, "internal_error", CloseCodes.UNEXPECTED_CONDITION,
                        "The server failed; reconnect with your last cursor");
            }
        }
    }

    /**
     * Forgets the connection in the engine first, then closes it: the container may never report the close of a
     * connection whose peer is gone, and its slot and subscriptions must be released all the same. The close
     * itself never throws (see {@link WebSocketSubscriber#close(CloseReason.CloseCode, String)}).
     */
    private void end(WebSocketSubscriber subscriber, String cause, CloseReason.CloseCode code, String reason) {
        open.remove(subscriber);
        engine.close(subscriber, cause);
        subscriber.close(code, reason);
    }
}
