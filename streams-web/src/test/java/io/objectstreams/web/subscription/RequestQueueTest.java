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
            RequestQueue queue = new RequestQueue(pool, 10_000);
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
                })).isTrue();
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

    private static int size(List<Integer> ran) {
        synchronized (ran) {
            return ran.size();
        }
    }

    @Test
    void aBusyConnectionGoesToTheBackOfThePoolAfterEachRequest() {
        Stepper pool = new Stepper();
        RequestQueue busy = new RequestQueue(pool, 100);
        RequestQueue quiet = new RequestQueue(pool, 100);
        List<String> ran = new ArrayList<>();
        busy.submit(() -> ran.add("busy 1"));
        busy.submit(() -> ran.add("busy 2"));
        busy.submit(() -> ran.add("busy 3"));
        quiet.submit(() -> ran.add("quiet 1"));

        pool.runAll();

        assertThat(ran).containsExactly("busy 1", "quiet 1", "busy 2", "busy 3");
    }

    @Test
    void moreWaitingThanAllowedIsRefusedAndTheRestStillRun() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 2);
        List<Integer> ran = new ArrayList<>();
        assertThat(queue.submit(() -> ran.add(1))).isTrue();
        assertThat(queue.submit(() -> ran.add(2))).isTrue();
        assertThat(queue.submit(() -> ran.add(3))).isFalse();

        pool.runAll();

        assertThat(ran).containsExactly(1, 2);
        assertThat(queue.submit(() -> ran.add(4))).isTrue();
        pool.runAll();
        assertThat(ran).containsExactly(1, 2, 4);
    }

    @Test
    void aClosedConnectionsWaitingRequestsNeverRun() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 10);
        List<Integer> ran = new ArrayList<>();
        queue.submit(() -> ran.add(1));
        queue.submit(() -> ran.add(2));
        queue.close();
        assertThat(queue.submit(() -> ran.add(3))).isTrue();

        pool.runAll();

        assertThat(ran).isEmpty();
        assertThat(queue.size()).isZero();
    }

    @Test
    void aRequestThatThrowsLeavesTheLaterOnesRunning() {
        Stepper pool = new Stepper();
        RequestQueue queue = new RequestQueue(pool, 10);
        List<Integer> ran = new ArrayList<>();
        queue.submit(() -> {
            throw new IllegalStateException("a bug of this request only");
        });
        queue.submit(() -> ran.add(2));

        pool.runAll();

        assertThat(ran).containsExactly(2);
    }
}
