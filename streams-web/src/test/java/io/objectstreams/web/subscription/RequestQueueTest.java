package io.objectstreams.web.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestQueueTest {

    /** An executor that runs what it is given only when told, in the order given, like a pool's queue. */
    private static final class Stepper implements java.util.concurrent.Executor {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            for (Runnable task; (task = tasks.poll()) != null; ) {
                task.run();
            }
        }
    }

    @Test
    void oneConnectionsRequestsRunInOrderAndOneAtATimeOnAPool() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            RequestQueue queue = new RequestQueue(pool, 10_000, 1_000_000);
            List<Integer> ran = new ArrayList<>();
            int[] running = {0};
            int[] mostAtOnce = {0};
            for (int i = 0; i < 2_000; i++) {
                int n = i;
                assertThat(queue.submit(() -> {
                    synchronized (ran) {
                        mostAtOnce[0] = Math.max(mostAtOnce[0], ++running[0]);
                    }
                    synchronized (ran) {
                        ran.add(n);
                        running[0]--;
                    }
                }, 1)).isTrue();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (queue.size() > 0 || size(ran) < 2_000) {
                assertThat(System.nanoTime()).as("all ran within 10 s").isLessThan(deadline);
                Thread.sleep(5);
            }
            assertThat(ran).hasSize(2_000).isSorted();
            assertThat(mostAtOnce[0]).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits (at most 10 s) until {@code reader} waits for room in a queue. */
    private static void awaitWaiting(Thread reader, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (reader.getState() != Thread.State.WAITING) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private static int size(List<Integer> ran) {
        synchronized (ran) {
            return ran.size();
        }
    }

    @Test
    void aBusyConnectionGoesToTheBackOfThePoolAfterEachRequest() {
        Stepper pool = new Stepper();
        RequestQueue busy = new RequestQueue(pool, 100, 1_000_000);
        RequestQueue quiet = new RequestQueue(pool, 100, 1_000_000);
        List<String> ran = new ArrayList<>();
        busy.submit(() -> ran.add("busy 1"), 1);
        busy.submit(() -> ran.add("busy 2"), 1);
        busy.submit(() -> ran.add("busy 3"), 1);
        quiet.submit(() -> ran.add("quiet 1"), 1);

        pool.runAll();

        assertThat(ran).containsExactly("busy 1", "quiet 1", "busy 2", "busy 3");
    }

    @Test
    void moreWaitingThanAllowedWaitsForRoomAndNothingIsDropped() throws Exception {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 2, 1_000_000);
        List<Integer> ran = java.util.Collections.synchronizedList(new ArrayList<>());
        assertThat(queue.submit(() -> ran.add(1), 1)).isTrue();
        assertThat(queue.submit(() -> ran.add(2), 1)).isTrue();
        Thread reader = new Thread(() -> queue.submit(() -> ran.add(3), 1));
        reader.start();
        awaitWaiting(reader, "the third submit waits");
        assertThat(queue.size()).isEqualTo(2);

        synchronized (pool) {
            pool.tasks.poll().run(); // runs request 1 and makes room
        }
        reader.join(10_000);
        assertThat(reader.isAlive()).isFalse();
        pool.runAll();

        assertThat(ran).containsExactly(1, 2, 3);
    }

    @Test
    void aClientsTextWaitsOnlyUpToTheFrameLimit() throws Exception {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 100, 1_000);
        assertThat(queue.submit(() -> { }, 900)).isTrue();
        assertThat(queue.submit(() -> { }, 100)).isTrue();
        Thread reader = new Thread(() -> queue.submit(() -> { }, 1));
        reader.start();
        awaitWaiting(reader, "the third submit waits: 1,001 characters would wait");
        synchronized (pool) {
            pool.tasks.poll().run();
        }
        reader.join(10_000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(queue.size()).isEqualTo(2);
    }

    @Test
    void aRequestLargerThanTheLimitStillRunsAlone() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 100, 10);
        List<Integer> ran = new ArrayList<>();
        assertThat(queue.submit(() -> ran.add(1), 50)).isTrue();
        pool.runAll();
        assertThat(ran).containsExactly(1);
    }

    @Test
    void aPoolThatRefusesWorkIsReportedToTheCaller() {
        RequestQueue queue = new RequestQueue(task -> {
            throw new java.util.concurrent.RejectedExecutionException("stopping");
        }, 10, 1_000);
        assertThat(queue.submit(() -> { }, 1)).isFalse();
    }

    @Test
    void anErrorInARequestLeavesTheLaterOnesRunning() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 10, 1_000);
        List<Integer> ran = new ArrayList<>();
        queue.submit(() -> {
            throw new StackOverflowError("deep");
        }, 1);
        queue.submit(() -> ran.add(2), 1);
        try {
            pool.tasks.poll().run();
        } catch (StackOverflowError expected) {
            // the pool's thread would die of it; the queue has scheduled the rest first
        }
        pool.runAll();
        assertThat(ran).containsExactly(2);
    }

    @Test
    void closingReleasesAReaderWaitingForRoom() throws Exception {
        RequestQueue queue = new RequestQueue(new Stepper(), 1, 1_000);
        queue.submit(() -> { }, 1);
        Thread reader = new Thread(() -> queue.submit(() -> { }, 1));
        reader.start();
        awaitWaiting(reader, "the second submit waits");
        queue.close();
        reader.join(10_000);
        assertThat(reader.isAlive()).isFalse();
    }

    @Test
    void aClosedConnectionsWaitingRequestsNeverRun() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 10, 1_000_000);
        List<Integer> ran = new ArrayList<>();
        queue.submit(() -> ran.add(1), 1);
        queue.submit(() -> ran.add(2), 1);
        queue.close();
        assertThat(queue.submit(() -> ran.add(3), 1)).isTrue();

        pool.runAll();

        assertThat(ran).isEmpty();
        assertThat(queue.size()).isZero();
    }

    @Test
    void aRequestThatThrowsLeavesTheLaterOnesRunning() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 10, 1_000_000);
        List<Integer> ran = new ArrayList<>();
        queue.submit(() -> {
            throw new IllegalStateException("a bug of this request only");
        }, 1);
        queue.submit(() -> ran.add(2), 1);

        pool.runAll();

        assertThat(ran).containsExactly(2);
    }
}
