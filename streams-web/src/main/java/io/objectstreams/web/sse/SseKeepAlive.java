package io.objectstreams.web.sse;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One clock for every open Server-Sent Events stream of the application, as {@code WebSocketKeepAlive} is for the
 * WebSocket: at each tick every stream sends its heartbeat when one is due, ends when its lifetime has passed, and
 * is let go when it has stalled (see {@link SseSubscriber#tick}). One clock rather than a timer task per stream: a
 * cancelled task stays queued in the container's scheduler until it would have run, and holds its stream until then.
 */
@ApplicationScoped
public class SseKeepAlive {

    private static final Logger LOG = Logger.getLogger(SseKeepAlive.class.getName());

    /** How often the clock looks at every open stream: heartbeats and lifetimes are kept to within this. */
    static final long TICK_MILLIS = 250;

    @Resource(lookup = "java:comp/DefaultManagedScheduledExecutorService")
    ManagedScheduledExecutorService timers;

    /** The streams that opened and the clock has not yet seen released. */
    private final Set<SseSubscriber> open = ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> clock;

    @PostConstruct
    void start() {
        clock = timers.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (clock != null) {
            clock.cancel(false);
        }
        open.clear();
    }

    /** Starts watching a stream that just opened; one already released is dropped at the next tick. */
    void watch(SseSubscriber subscriber) {
        open.add(subscriber);
    }

    /** Stops watching a stream that was released. */
    void forget(SseSubscriber subscriber) {
        open.remove(subscriber);
    }

    /** Never throws: a periodic task that throws is never run again, and every stream would lose its heartbeat. */
    private void tick() {
        long now = System.nanoTime();
        for (SseSubscriber subscriber : open) {
            try {
                if (!subscriber.tick(now)) {
                    open.remove(subscriber);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "An SSE stream's heartbeat or lifetime check failed; it is closed", e);
                open.remove(subscriber);
                subscriber.close("internal error", false);
            }
        }
    }
}
