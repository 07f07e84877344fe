package io.objectstreams.it.soak;

import jakarta.json.JsonObject;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers through the demo's REST API: creates, updates and deletes of orders of alice and bob (as themselves or
 * as carol, who is staff), staff moving an order to the other customer, and a share of writes that roll back on
 * purpose ({@code it/soak/rollback}), at a paced rate; and the shapes of {@link SoakShapes}: lines written in SQL and
 * moved between orders, lines removed through the bidirectional helper, an order moved and deleted in one batch; and
 * staff restoring an order this writer deleted, under its old id ({@code api/orders/{id}/restore}), so that pks come
 * back as natural keys do. Each writer changes only orders it created, plus the shared
 * seed orders it may update (never moved: the object subscriptions follow them).
 */
final class SoakWriters {

    static final List<String> OWNERS = List.of("alice", "bob");
    static final List<String> STATUSES = List.of("draft", "open", "paid", "shipped", "cancelled");

    final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    /** Every order a writer created and saw the reply for, with its owner. */
    final Map<String, String> owners = new ConcurrentHashMap<>();
    private final Cluster cluster;
    private final List<String> seeds;
    private final double rollbackShare;
    /**
     * Whether staff restores deleted orders under their old ids: on unless {@code -Dstreams.soak.restore=false}. The
     * first CI run with it found reliability.md's defect 14 (rows of a deleted order still being replayed or fanned
     * out when its pk was restored were decided against the restored order).
     */
    private final boolean restoring = !"false".equals(System.getProperty("streams.soak.restore"));
    private final AtomicLong started = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    SoakWriters(Cluster cluster, Map<String, String> seedOwners, double rollbackShare) {
        this.cluster = cluster;
        this.seeds = List.copyOf(seedOwners.keySet());
        this.owners.putAll(seedOwners);
        this.rollbackShare = rollbackShare;
    }

    /** Starts {@code writers} threads that together attempt {@code transactions} writes at {@code rate} per second. */
    void start(int writers, long transactions, double rate) {
        long periodNanos = (long) (1e9 * writers / rate);
        for (int i = 0; i < writers; i++) {
            Thread thread = new Thread(() -> write(transactions, periodNanos), "soak-writer-" + i);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    void stop() throws InterruptedException {
        stopping = true;
        join();
    }

    long attempted() {
        return started.get();
    }

    long count(String name) {
        AtomicLong count = counts.get(name);
        return count == null ? 0 : count.get();
    }

    private void add(String name) {
        counts.computeIfAbsent(name, n -> new AtomicLong()).incrementAndGet();
    }

    private void write(long transactions, long periodNanos) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<String> mine = new ArrayList<>();
        // Orders this writer deleted: staff may restore one under its old id, as a natural key comes back.
        List<String> gone = new ArrayList<>();
        long next = System.nanoTime();
        while (!stopping && started.incrementAndGet() <= transactions) {
            next += periodNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
            URL base = cluster.pick();
            if (base == null) {
                add("failed:no-server");
                continue;
            }
            double dice = random.nextDouble();
            String action = mine.isEmpty() || dice < 0.25 ? "create" : dice < 0.57 ? "update" : dice < 0.67 ? "reassign"
                    : dice < 0.79 ? "line" : dice < 0.84 ? "transfer-delete" : restoring && dice < 0.88 && !gone.isEmpty()
                    ? "restore" : "delete";
            String pk = switch (action) {
                case "create" -> null;
                case "restore" -> gone.remove(random.nextInt(gone.size()));
                case "update" -> random.nextDouble() < 0.25 ? seeds.get(random.nextInt(seeds.size())) : mine.get(random.nextInt(mine.size()));
                default -> mine.get(random.nextInt(mine.size()));
            };
            String owner = pk == null || action.equals("restore") ? OWNERS.get(random.nextInt(OWNERS.size()))
                    : owners.get(pk);
            String actor = action.equals("reassign") || random.nextDouble() < 0.3 ? "carol" : owner;
            String newOwner = OWNERS.get(1 - OWNERS.indexOf(owner));
            if (action.equals("line")) {
                add(SoakShapes.line(base, actor, pk, mine));
                continue;
            }
            if (action.equals("transfer-delete")) {
                String outcome = SoakShapes.transferAndDelete(base, pk, newOwner);
                add(outcome);
                mine.remove(pk); // deleted, or its outcome is unknown: left alone from now on
                if (outcome.startsWith("committed:")) {
                    gone.add(pk);
                }
                continue;
            }
            if (action.equals("restore")) {
                // Staff creates the order again under its old id, for either customer (issue 40 item 3).
                Http.Reply reply = Http.send(base, "carol", "POST", "api/orders/" + pk + "/restore", "{\"owner\":\""
                        + owner + "\",\"status\":\"" + STATUSES.get(random.nextInt(STATUSES.size())) + "\",\"total\":7}");
                if (reply.ok()) {
                    owners.put(pk, owner);
                    mine.add(pk);
                }
                add(reply.ok() ? "committed:restore" : "failed:restore:" + reply.status());
                continue;
            }
            if (action.equals("reassign")) {
                // Staff moves the order to the other customer: it leaves one user's sets and enters the other's (G8).
                Http.Reply reply = Http.send(base, actor, "PATCH", "api/orders/" + pk, "{\"owner\":\"" + newOwner + "\"}");
                if (reply.ok()) {
                    owners.put(pk, newOwner);
                }
                add(reply.ok() ? "committed:reassign" : "failed:reassign:" + reply.status());
                continue;
            }
            if (random.nextDouble() < rollbackShare) {
                rollback(base, actor, action, pk, owner, random.nextBoolean() ? "commit" : "flush");
                continue;
            }
            Http.Reply reply = switch (action) {
                case "create" -> Http.send(base, actor, "POST", "api/orders", "{\"owner\":\"" + owner + "\",\"status\":\""
                        + STATUSES.get(random.nextInt(STATUSES.size())) + "\",\"total\":" + random.nextInt(1, 1000) + "}");
                case "update" -> Http.send(base, actor, "PATCH", "api/orders/" + pk, "{\"status\":\""
                        + STATUSES.get(random.nextInt(STATUSES.size())) + "\",\"total\":" + random.nextInt(1, 1000) + ".5}");
                default -> Http.send(base, actor, "DELETE", "api/orders/" + pk, null);
            };
            if (reply.ok()) {
                add("committed:" + action);
                if (action.equals("create")) {
                    String id = ((JsonObject) reply.body()).getJsonNumber("id").toString();
                    owners.put(id, owner);
                    mine.add(id);
                } else if (action.equals("delete")) {
                    mine.remove(pk);
                    gone.add(pk);
                }
            } else {
                add("failed:" + action + ":" + reply.status());
                if (action.equals("delete")) {
                    mine.remove(pk); // its outcome is unknown: leave it alone from now on
                }
            }
        }
    }

    private void rollback(URL base, String actor, String action, String pk, String owner, String at) {
        Http.Reply reply = Http.send(base, actor, "POST", "api/it/soak/rollback?action=" + action + "&owner=" + owner
                + "&at=" + at + (pk == null ? "" : "&id=" + pk), null);
        boolean committed = reply.status() == 500 && reply.body() instanceof JsonObject body
                && body.containsKey("rolledBack") && !body.getBoolean("rolledBack");
        add(reply.status() == 409 ? "rolled-back:" + action + ":" + at
                : committed ? "rollback-committed" : "failed:rollback:" + reply.status());
    }
}
