package io.objectstreams.web.socket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.glassfish.tyrus.core.BaseContainer;
import org.glassfish.tyrus.core.TyrusSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Against a stand-in with the shape of Tyrus 2.1.5's session (test sources, {@code org.glassfish.tyrus.core}). */
class TyrusIdleTimerTest {

    /** The container's scheduler: counts what reaches it. */
    private final Counting container = new Counting();

    @AfterEach
    void stop() {
        container.shutdownNow();
    }

    @Test
    void withNoIdleTimeoutTheIdleTaskNeverReachesTheContainer() {
        TyrusSession session = new TyrusSession(container);
        session.setMaxIdleTimeout(0);

        assertThat(TyrusIdleTimer.install(session)).isTrue();
        for (int send = 0; send < 1_000; send++) {
            session.restartIdleTimeoutExecutor();
        }

        assertThat(container.scheduled).hasValue(0);
    }

    @Test
    void sessionsBuiltAfterTheFirstNeverScheduleTheTaskEvenInTheirConstructor() {
        BaseContainer tyrus = new BaseContainer(container);
        TyrusSession first = new TyrusSession(tyrus);
        assertThat(container.scheduled).as("the first session's constructor, before anything is installed").hasValue(1);

        assertThat(TyrusIdleTimer.install(first)).isTrue();
        for (int i = 0; i < 1_000; i++) {
            TyrusSession later = new TyrusSession(tyrus);
            assertThat(TyrusIdleTimer.install(later)).isTrue();
            later.restartIdleTimeoutExecutor();
        }

        assertThat(container.scheduled).hasValue(1);
        assertThat(tyrus.getScheduledExecutorService()).isInstanceOf(TyrusIdleTimer.Skipping.class);
    }

    @Test
    void aSessionWithAnIdleTimeoutBuiltOnTheSkippingContainerStillHasItsTask() {
        BaseContainer tyrus = new BaseContainer(container);
        TyrusIdleTimer.install(new TyrusSession(tyrus));
        TyrusSession timed = new TyrusSession(tyrus);

        timed.setMaxIdleTimeout(30_000);
        timed.restartIdleTimeoutExecutor();

        assertThat(container.scheduled).hasValue(2);
    }

    @Test
    void anIdleTimeoutSetLaterIsStillKept() {
        TyrusSession session = new TyrusSession(container);
        TyrusIdleTimer.install(session);

        session.setMaxIdleTimeout(60_000);
        session.restartIdleTimeoutExecutor();

        assertThat(container.scheduled).hasValue(1);
    }

    @Test
    void everyOtherTaskRunsOnTheContainersScheduler() throws Exception {
        TyrusSession session = new TyrusSession(container);
        TyrusIdleTimer.install(session);
        CountDownLatch ran = new CountDownLatch(2);

        session.scheduler().schedule(ran::countDown, 0, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> beat = session.scheduler().scheduleAtFixedRate(ran::countDown, 0, 1, TimeUnit.HOURS);

        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(container.scheduled).hasValue(2);
        beat.cancel(false);
    }

    @Test
    void installingTwiceWrapsOnce() {
        TyrusSession session = new TyrusSession(container);
        TyrusIdleTimer.install(session);
        TyrusIdleTimer.install(session);

        assertThat(session.scheduler()).isInstanceOf(TyrusIdleTimer.Skipping.class);
        session.setMaxIdleTimeout(1_000);
        session.restartIdleTimeoutExecutor();
        assertThat(container.scheduled).hasValue(1);
    }

    @Test
    void anotherImplementationIsLeftAsItIs() {
        TyrusSession other = new TyrusSession(container) {
        };

        assertThat(TyrusIdleTimer.install(other)).isFalse();
        assertThat(other.scheduler()).isSameAs(container);
    }

    private static final class Counting extends ScheduledThreadPoolExecutor {

        final AtomicInteger scheduled = new AtomicInteger();

        Counting() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            scheduled.incrementAndGet();
            return super.schedule(command, delay, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            scheduled.incrementAndGet();
            return super.scheduleAtFixedRate(command, initialDelay, period, unit);
        }
    }
}
