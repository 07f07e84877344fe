package io.objectstreams.web.socket;

import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;
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
 * Spares Payara the idle-timer task its WebSocket implementation schedules for every new session and on every send.
 *
 * <p>Tyrus (2.1.5, in Payara 6) restarts a session's idle timer when the session is built, on every message sent and
 * on every pong received, whatever the session's idle timeout: it cancels the last task and schedules a new one on the
 * container's managed scheduled executor, with a delay of the timeout, so with no timeout the task runs at once and
 * does nothing. The managed executor captures the caller's context for the task and sets it up again to run it; that
 * costs more than a send (docs/benchmarks.md, "Where Payara's time goes"), and in a reconnect storm the one scheduled
 * by each new session's constructor was a seventh of Payara's CPU. Object Streams never uses the container's idle
 * timeout (the keep-alive keeps {@code streams.websocket.max-idle}), so the task never does anything.
 *
 * <p>{@link #install} hands the container (from the first session on, so every later session is built with it) and
 * the session a scheduler that drops an idle-timer task scheduled with no delay, which is one with no idle timeout,
 * and hands every other task to the container's executor. On any other implementation, or a Tyrus without those
 * fields, it does nothing and says so once in the log.
 */
final class TyrusIdleTimer {

    private static final Logger LOG = Logger.getLogger(TyrusIdleTimer.class.getName());
    private static final String SESSION_CLASS = "org.glassfish.tyrus.core.TyrusSession";
    private static final String CONTAINER_CLASS = "org.glassfish.tyrus.core.BaseContainer";
    private static final String IDLE_TASK_CLASS = SESSION_CLASS + "$IdleTimeoutCommand";
    /** Tyrus's session field holding the scheduler; null until the first Tyrus session, or when absent. */
    private static volatile Field schedulerField;
    /** Tyrus's container field holding the managed scheduler; null until found. */
    private static volatile Field containerField;
    private static volatile boolean unavailable;
    private static volatile boolean containerUnavailable;

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
                field = scheduler(session.getClass(), "service");
                schedulerField = field;
                LOG.info("WebSocket sessions skip Tyrus's idle-timer task, which never acts with no idle timeout "
                        + "(streams.websocket.skip-container-idle-timer)");
            }
            installOn(session.getContainer());
            return wrap(field, session);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Only a cost is at stake: the session is untouched, Tyrus keeps scheduling its own (inert) task, and
            // every event and resync still goes out as before, so no client is owed anything here.
            unavailable = true;
            LOG.log(Level.INFO, "This Tyrus session has no scheduler field Object Streams knows; Tyrus keeps "
                    + "scheduling its idle timer on every send", e);
            return false;
        }
    }

    /**
     * Gives the container the skipping scheduler too, once, so that the sessions built from now on skip the task
     * their constructor schedules. Without the field (another Tyrus, or a container with no managed executor) the
     * sessions still skip it from {@code onOpen} on.
     */
    private static void installOn(WebSocketContainer container) {
        if (containerUnavailable || container == null) {
            return;
        }
        try {
            Field field = containerField;
            if (field == null) {
                Class<?> type = container.getClass();
                while (type != null && !type.getName().equals(CONTAINER_CLASS)) {
                    type = type.getSuperclass();
                }
                if (type == null) {
                    throw new NoSuchFieldException("not a " + CONTAINER_CLASS);
                }
                field = scheduler(type, "managedScheduledExecutorService");
                containerField = field;
            }
            if (!(field.get(container) instanceof Skipping)) {
                synchronized (TyrusIdleTimer.class) {
                    wrap(field, container);
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            containerUnavailable = true;
            LOG.log(Level.INFO, "This Tyrus container has no managed scheduler field Object Streams knows; each new "
                    + "WebSocket session schedules one idle-timer task before it opens", e);
        }
    }

    private static Field scheduler(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        if (!ScheduledExecutorService.class.isAssignableFrom(field.getType())) {
            throw new NoSuchFieldException(name + " is a " + field.getType().getName());
        }
        field.setAccessible(true);
        return field;
    }

    /** Whether {@code owner}'s scheduler in {@code field} skips the task now; false if it holds none. */
    private static boolean wrap(Field field, Object owner) throws IllegalAccessException {
        Object current = field.get(owner);
        if (current instanceof Skipping) {
            return true;
        }
        if (!(current instanceof ScheduledExecutorService container)) {
            return false;
        }
        field.set(owner, new Skipping(container));
        return true;
    }

    /**
     * The container's scheduler, without the idle-timer task of a session with no idle timeout: Tyrus schedules it
     * with the timeout as its delay, so that task is the one with no delay.
     */
    static final class Skipping extends AbstractExecutorService implements ScheduledExecutorService {

        private final ScheduledExecutorService container;

        Skipping(ScheduledExecutorService container) {
            this.container = container;
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            if (delay <= 0 && command.getClass().getName().equals(IDLE_TASK_CLASS)) {
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
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                         TimeUnit unit) {
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
