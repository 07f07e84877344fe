package io.objectstreams.web.socket;

import jakarta.websocket.Session;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Spares Payara the idle-timer task its WebSocket implementation schedules on every send.
 *
 * <p>Tyrus (2.1.5, in Payara 6) restarts a session's idle timer on every message sent and every pong received,
 * whatever the session's idle timeout: it cancels the last task and schedules a new one on the container's managed
 * scheduled executor, with a delay of the timeout, so with no timeout the task runs at once. The managed executor
 * captures the sender's context for the task and sets it up again to run it; that costs more than the send itself
 * (docs/benchmarks.md, "Where Payara's time goes"). Object Streams never uses the container's idle timeout (the
 * keep-alive keeps {@code streams.websocket.max-idle}), so the task never does anything.
 *
 * <p>{@link #install} gives one Tyrus session a scheduler that drops the idle-timer task while the session has no
 * idle timeout and hands every other task to the container's executor. On any other implementation, or a Tyrus
 * whose session no longer has the field, it does nothing and says so once in the log.
 */
final class TyrusIdleTimer {

    private static final Logger LOG = Logger.getLogger(TyrusIdleTimer.class.getName());
    private static final String SESSION_CLASS = "org.glassfish.tyrus.core.TyrusSession";
    private static final String IDLE_TASK_CLASS = SESSION_CLASS + "$IdleTimeoutCommand";
    /** Tyrus's session field holding the scheduler; null until the first Tyrus session, or when absent. */
    private static volatile Field schedulerField;
    private static volatile boolean unavailable;

    private TyrusIdleTimer() {
    }

    /** Whether {@code session} now skips the idle-timer task; false on other implementations. */
    static boolean install(Session session) {
        if (unavailable || !session.getClass().getName().equals(SESSION_CLASS)) {
            return false;
        }
        try {
            Field field = schedulerField;
            if (field == null || field.getDeclaringClass() != session.getClass()) {
                field = session.getClass().getDeclaredField("service");
                if (!ScheduledExecutorService.class.isAssignableFrom(field.getType())) {
                    throw new NoSuchFieldException("service is a " + field.getType().getName());
                }
                field.setAccessible(true);
                schedulerField = field;
                LOG.info("WebSocket sessions skip Tyrus's idle-timer task, which never acts with no idle timeout "
                        + "(streams.websocket.skip-container-idle-timer)");
            }
            Object current = field.get(session);
            if (current instanceof Skipping) {
                return true;
            }
            if (!(current instanceof ScheduledExecutorService container)) {
                return false;
            }
            field.set(session, new Skipping(container, session));
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Only a cost is at stake: the session is untouched, Tyrus keeps scheduling its own (inert) task, and
            // every event and resync still goes out as before, so no client is owed anything here.
            unavailable = true;
            LOG.log(Level.INFO, "This Tyrus session has no scheduler field Object Streams knows; Tyrus keeps "
                    + "scheduling its idle timer on every send", e);
            return false;
        }
    }

    /** The container's scheduler, without the idle-timer task while the session has no idle timeout. */
    static final class Skipping extends AbstractExecutorService implements ScheduledExecutorService {

        private final ScheduledExecutorService container;
        private final Session session;

        Skipping(ScheduledExecutorService container, Session session) {
            this.container = container;
            this.session = session;
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            if (session.getMaxIdleTimeout() <= 0 && command.getClass().getName().equals(IDLE_TASK_CLASS)) {
                return Skipped.INSTANCE;
            }
            return container.schedule(command, delay, unit);
        }

        @Override
        public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
            return container.schedule(callable, delay, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            return container.scheduleAtFixedRate(command, initialDelay, period, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
            return container.scheduleWithFixedDelay(command, initialDelay, delay, unit);
        }

        @Override
        public void execute(Runnable command) {
            container.execute(command);
        }

        @Override
        public void shutdown() {
            container.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return container.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return container.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return container.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return container.awaitTermination(timeout, unit);
        }
    }

    /** The future of a skipped task: already done, nothing to cancel. */
    static final class Skipped implements ScheduledFuture<Object> {

        static final Skipped INSTANCE = new Skipped();

        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(0, other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
