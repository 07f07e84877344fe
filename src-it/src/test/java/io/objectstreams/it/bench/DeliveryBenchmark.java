package io.objectstreams.it.bench;

import io.objectstreams.it.support.Health;
import io.objectstreams.it.support.PayaraMicroProcess;
import io.objectstreams.it.support.Ports;
import io.objectstreams.it.support.StoreClient;
import io.objectstreams.it.support.StreamClient;
import io.objectstreams.it.support.TestDatabase;
import jakarta.json.JsonObject;
import jakarta.json.spi.JsonProvider;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * {@code mvn -pl src-it -Pbench package}: how fast a committed change reaches WebSocket subscribers, end to end,
 * on Payara Micro with the demo store (REST write → JPA commit → outbox → NOTIFY → cursor → fan-out → socket).
 *
 * <p>Every subscriber is staff with one model subscription on {@code store.CustomerOrder}, so each write is one
 * event for each of them. Latency runs one writer with pauses, so every write is its own listener batch; load runs
 * several writers flat out. Latency is measured from the moment the writer has the HTTP response of its write (the
 * commit happened just before) to the moment a subscriber has the event. Client and server share the machine.
 * Prints figures; asserts only that every subscriber received every event.
 */
public final class DeliveryBenchmark {

    private static final String MODEL = "store.CustomerOrder";
    /** One provider for all parsing: {@code Json.createReader} would look it up again per message. */
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final int[] SUBSCRIBERS = Arrays.stream(System.getProperty("bench.subscribers", "1,100,500").split(","))
            .mapToInt(Integer::parseInt).toArray();
    private static final int LATENCY_WRITES = Integer.getInteger("bench.latency.writes", 200);
    private static final Duration LOAD_TIME = Duration.ofSeconds(Integer.getInteger("bench.load.seconds", 10));
    private static final int LOAD_WRITERS = 4;

    private DeliveryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        TestDatabase.start();
        HttpClient sockets = HttpClient.newHttpClient();
        try (PayaraMicroProcess server = PayaraMicroProcess.start("bench", Ports.free(), Map.of())) {
            server.awaitStarted(Duration.ofMinutes(3));
            URL store = server.deployment();
            Health.awaitListenerReady(server.healthRoot(), false);
            System.out.println("Warming up ...");
            try (Subscribers warm = Subscribers.open(sockets, store, 1)) {
                latency(store, warm, 300);
            }
            System.out.println();
            System.out.println("| subscribers | latency p50 ms | p95 ms | p99 ms | max ms |");
            System.out.println("| --- | --- | --- | --- | --- |");
            for (int count : SUBSCRIBERS) {
                try (Subscribers subscribers = Subscribers.open(sockets, store, count)) {
                    long[] millis = latency(store, subscribers, LATENCY_WRITES);
                    System.out.printf("| %d | %.1f | %.1f | %.1f | %.1f |%n", count, pct(millis, 50), pct(millis, 95),
                            pct(millis, 99), pct(millis, 100));
                }
            }
            System.out.println();
            System.out.printf("| subscribers | writes/s (%d writers) | events delivered/s | latency p50 ms | p99 ms"
                    + " | max rows without cursor | max cursors not yet fanned out | max queued messages |%n", LOAD_WRITERS);
            System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
            for (int count : SUBSCRIBERS) {
                try (Subscribers subscribers = Subscribers.open(sockets, store, count)) {
                    load(store, server.healthRoot(), subscribers);
                }
            }
        } finally {
            TestDatabase.stop();
        }
    }

    /** One writer toggles one order's status, pausing between writes; returns every (write, subscriber) latency. */
    private static long[] latency(URL store, Subscribers subscribers, int writes) throws Exception {
        StoreClient alice = StoreClient.as("alice", store);
        long order = alice.createOrder("{\"status\":\"open\",\"total\":1}");
        subscribers.awaitEach(order, 1);
        Map<Long, Long> committedAt = new ConcurrentHashMap<>();
        subscribers.track(order);
        for (int i = 0; i < writes; i++) {
            int status = alice.patch("api/orders/" + order, "{\"note\":\"n" + i + "\"}").status();
            if (status != 200) {
                throw new IllegalStateException("write failed with HTTP " + status);
            }
            committedAt.put((long) i, System.nanoTime());
            Thread.sleep(20);
        }
        subscribers.awaitEach(order, 1 + writes);
        return subscribers.latencies(order, committedAt);
    }

    /** Several writers create orders as fast as the server takes them, for {@link #LOAD_TIME}. */
    private static void load(URL store, URI healthRoot, Subscribers subscribers) throws Exception {
        Map<Long, Long> committedAt = new ConcurrentHashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        subscribers.trackCreated();
        List<Thread> writers = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < LOAD_WRITERS; w++) {
            StoreClient alice = StoreClient.as("alice", store);
            Thread writer = new Thread(() -> {
                while (writing.get()) {
                    long id = alice.createOrder("{\"status\":\"open\",\"total\":2}");
                    committedAt.put(id, System.nanoTime());
                    writes.incrementAndGet();
                }
            });
            writers.add(writer);
            writer.start();
        }
        long maxQueued = 0;
        long maxUndelivered = 0;
        long maxBacklog = 0;
        for (long end = start + LOAD_TIME.toNanos(); System.nanoTime() < end; Thread.sleep(500)) {
            Health.Check health = Health.listener(healthRoot, "ready");
            maxQueued = Math.max(maxQueued, health.number("queuedMessages"));
            maxUndelivered = Math.max(maxUndelivered, health.number("lastAssignedCursor") - health.number("lastDeliveredCursor"));
            maxBacklog = Math.max(maxBacklog, health.number("backlogRows"));
        }
        writing.set(false);
        for (Thread writer : writers) {
            writer.join();
        }
        long written = System.nanoTime();
        subscribers.awaitCreated(writes.get());
        long delivered = subscribers.lastArrival();
        long[] millis = subscribers.createdLatencies(committedAt);
        double writeSeconds = (written - start) / 1e9;
        double deliverSeconds = (delivered - start) / 1e9;
        System.out.printf("| %d | %.0f | %.0f | %.1f | %.1f | %d | %d | %d |%n", subscribers.size(),
                writes.get() / writeSeconds, writes.get() * subscribers.size() / deliverSeconds, pct(millis, 50),
                pct(millis, 99), maxBacklog, maxUndelivered, maxQueued);
    }

    private static double pct(long[] nanos, int percentile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
        return sorted[index] / 1e6;
    }

    /** Staff WebSocket sessions, each with one model subscription, recording when each event arrives. */
    private static final class Subscribers implements AutoCloseable {
        private final List<Subscriber> all = new ArrayList<>();

        static Subscribers open(HttpClient http, URL store, int count)
                throws InterruptedException, ExecutionException, TimeoutException {
            Subscribers subscribers = new Subscribers();
            URI endpoint = StreamClient.endpoint(store);
            for (int i = 0; i < count; i++) {
                subscribers.all.add(new Subscriber(http, endpoint));
            }
            for (Subscriber subscriber : subscribers.all) {
                subscriber.awaitSubscribed();
            }
            return subscribers;
        }

        int size() {
            return all.size();
        }

        /** Arrivals for {@code order} from now on are numbered 0, 1, ... in cursor order. */
        void track(long order) {
            all.forEach(s -> s.tracked.put(order, new ArrayList<>()));
        }

        void trackCreated() {
            all.forEach(s -> s.created.clear());
        }

        void awaitEach(long order, int events) throws InterruptedException {
            for (Subscriber subscriber : all) {
                subscriber.await(() -> subscriber.seen(order) >= events);
            }
        }

        void awaitCreated(long events) throws InterruptedException {
            for (Subscriber subscriber : all) {
                subscriber.await(() -> subscriber.created.size() >= events);
            }
        }

        long[] latencies(long order, Map<Long, Long> committedAt) {
            List<Long> latencies = new ArrayList<>();
            for (Subscriber subscriber : all) {
                List<Long> arrivals = subscriber.tracked.get(order);
                for (int i = 0; i < committedAt.size(); i++) {
                    latencies.add(arrivals.get(i) - committedAt.get((long) i));
                }
            }
            return latencies.stream().mapToLong(Long::longValue).toArray();
        }

        long[] createdLatencies(Map<Long, Long> committedAt) {
            List<Long> latencies = new ArrayList<>();
            for (Subscriber subscriber : all) {
                subscriber.created.forEach((id, arrival) -> latencies.add(arrival - committedAt.get(id)));
            }
            return latencies.stream().mapToLong(Long::longValue).toArray();
        }

        long lastArrival() {
            return all.stream().mapToLong(s -> s.last).max().orElseThrow();
        }

        @Override
        public void close() {
            all.forEach(Subscriber::close);
        }
    }

    /** One staff session on a {@link StreamClient} that hands over each message's text with its arrival time. */
    private static final class Subscriber {
        private final StreamClient client;
        private final CountDownLatch subscribed = new CountDownLatch(1);
        /** Per tracked order: arrival times of its updates, in order. */
        final Map<Long, List<Long>> tracked = new ConcurrentHashMap<>();
        /** Per created order: when its {@code created} event arrived. */
        final Map<Long, Long> created = new ConcurrentHashMap<>();
        private final Map<Long, Integer> counts = new ConcurrentHashMap<>();
        volatile long last;
        /** A message other than subscribed or event (a resync, say): the run is reported as failed. */
        volatile JsonObject unexpected;

        Subscriber(HttpClient http, URI endpoint) throws InterruptedException, ExecutionException, TimeoutException {
            client = StreamClient.open(endpoint, StreamClient.options().http(http).connectTimeout(null).login("carol")
                    .onText(this::received));
            client.send("{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL
                    + "\",\"subscription_id\":\"all\"}");
        }

        void awaitSubscribed() throws InterruptedException {
            if (!subscribed.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not subscribed within 30 s");
            }
        }

        int seen(long order) {
            return counts.getOrDefault(order, 0);
        }

        void await(BooleanSupplier done) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!done.getAsBoolean()) {
                if (unexpected != null) {
                    throw new IllegalStateException("a subscriber got " + unexpected);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("a subscriber missed events: not all arrived within 120 s");
                }
                Thread.sleep(5);
            }
        }

        /**
         * One whole message, on the client's reading thread: {@code arrival} is when the {@code onText} call that
         * completed it began, taken before this parse.
         */
        private void received(String text, long arrival) {
            JsonObject message = JSON.createReader(new StringReader(text)).readObject();
            switch (message.getString("type")) {
                case "subscribed" -> subscribed.countDown();
                case "event" -> arrived(message, arrival);
                default -> unexpected = message;
            }
        }

        private void arrived(JsonObject event, long arrival) {
            long order = Long.parseLong(event.getJsonObject("subject").getString("pk"));
            List<Long> arrivals = tracked.get(order);
            if (arrivals != null && event.getString("op").equals("updated")) {
                arrivals.add(arrival);
            }
            if (event.getString("op").equals("created")) {
                created.put(order, arrival);
            }
            counts.merge(order, 1, Integer::sum);
            last = arrival;
        }

        void close() {
            client.close();
        }
    }
}
