package io.objectstreams.internal.outbox;

import io.objectstreams.internal.config.StreamsConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends the payload-free wakeup {@code NOTIFY} after commits, outside every business transaction, and
 * coalesces bursts into one (G4): at most one per {@code streams.listener.coalesce-window}.
 *
 * <p>Why not NOTIFY inside the transaction: PostgreSQL refuses it in a prepared (XA) transaction, and a
 * notifying commit takes a global lock that serialises all committers. A wakeup that is lost here costs
 * latency only: the listener also drains on its poll floor (G6).
 *
 * <p>One thread of its own sends them, started with the bean: a commit only sets a flag and signals it. Handing
 * each wakeup to the managed executor instead cost every streamed commit a task submission, which on Payara
 * captures the caller's context and walks a {@code ServiceLoader} each time (docs/benchmarks.md, "Capture
 * overhead", has the profile).
 */
@ApplicationScoped
public class WakeupNotifier {

    private static final Logger LOG = Logger.getLogger(WakeupNotifier.class.getName());

    /** How long stopping waits for a NOTIFY in flight. */
    private static final long STOP_WAIT_MILLIS = 5_000;

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;

    @Inject
    StreamsConfig config;

    private final Object signal = new Object();
    /** A commit asked for a wakeup that no NOTIFY begun since has covered; guarded by {@code signal}. */
    private boolean requested;
    private volatile boolean running;
    private Thread thread;

    @PostConstruct
    void start() {
        running = true;
        thread = threads.newThread(this::run);
        thread.setName("object-streams-wakeup");
        thread.start();
    }

    @PreDestroy
    void stop() {
        running = false;
        synchronized (signal) {
            signal.notifyAll();
        }
        try {
            thread.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks for a wakeup; returns at once. Commits that ask while one is pending ride on it. */
    public void wakeup() {
        synchronized (signal) {
            if (!requested) {
                requested = true;
                signal.notifyAll();
            }
        }
    }

    /**
     * Creates the bean, and so starts its thread, when the application starts: a thread factory that fails then
     * fails the deployment, rather than the first commit's completion.
     */
    void startWithApplication(@Observes @Initialized(ApplicationScoped.class) Object application) {
        // Observing is enough: the container creates the bean to deliver the event.
    }

    private void run() {
        long window = config.listener().coalesceWindow().toNanos();
        long lastSent = System.nanoTime() - window;
        try {
            while (awaitRequest(lastSent + window)) {
                lastSent = System.nanoTime();
                send();
            }
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "The Object Streams wakeup thread failed; commits now wait for the listener's poll"
                    + " floor (streams.listener.poll-interval) until the application is redeployed", e);
            throw e;
        }
        if (running) {
            LOG.severe("The Object Streams wakeup thread was interrupted; commits now wait for the listener's poll"
                    + " floor (streams.listener.poll-interval) until the application is redeployed");
        }
    }

    /**
     * Waits for a request, and under load until {@code notBefore} ({@link System#nanoTime}): the commits of one
     * coalescing window ({@code streams.listener.coalesce-window}) share one NOTIFY, and a commit after a quiet
     * window is sent at once. Takes the request; false once stopping.
     */
    private boolean awaitRequest(long notBefore) {
        synchronized (signal) {
            try {
                while (running && !requested) {
                    signal.wait();
                }
                long early;
                while (running && (early = notBefore - System.nanoTime()) > 0) {
                    signal.wait(early / 1_000_000, (int) (early % 1_000_000));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            // Taken before sending: a commit after this point asks for another NOTIFY, so none is missed.
            requested = false;
            return running;
        }
    }

    private void send() {
        try (Connection connection = config.dataSource().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("NOTIFY " + config.notifyChannel());
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "Wakeup NOTIFY on " + config.notifyChannel()
                    + " failed; the listener's poll floor will pick the rows up", e);
        }
    }
}
