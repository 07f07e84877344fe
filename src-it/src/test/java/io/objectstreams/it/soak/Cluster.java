package io.objectstreams.it.soak;

import io.objectstreams.it.support.Deployments;
import io.objectstreams.it.support.ServerProcess;
import java.io.File;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The soak's servers: slots that clients and writers pick from while they are up; a slot can be killed and restarted. */
final class Cluster implements AutoCloseable {

    static final class Slot {
        final String kind;
        final String name;
        final File archive;
        final Map<String, String> env;
        volatile ServerProcess server;
        volatile URL base;
        volatile boolean up;
        int kills;

        Slot(String kind, String name, Map<String, String> env) {
            this.kind = kind;
            this.name = name;
            this.env = new java.util.HashMap<>(env);
            // The server's batch log (SoakBatchLog), which the oracle reads.
            this.env.put("SOAK_BATCHES", SoakOracle.batchLog(name).toAbsolutePath().toString());
            this.archive = Deployments.storeFile(kind, "soak-" + name);
        }

        void start() {
            server = ServerProcess.start(kind, name, archive, env);
        }

        void awaitUp(Duration timeout) throws InterruptedException {
            server.awaitStarted(timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!List.of("assigner", "follower").contains(server.role())) {
                if (System.nanoTime() > deadline || !server.isAlive()) {
                    throw new AssertionError(name + " (" + kind + ") did not become ready; log:\n" + server.log());
                }
                Thread.sleep(250);
            }
            base = server.deployment();
            up = true;
        }

        @Override
        public String toString() {
            return name + " (" + kind + ")";
        }
    }

    final List<Slot> slots = new ArrayList<>();

    Cluster(List<String> kinds, Map<String, String> env) throws InterruptedException {
        for (int i = 0; i < kinds.size(); i++) {
            slots.add(new Slot(kinds.get(i), "soak-" + (i + 1), env));
        }
        slots.forEach(Slot::start);
        for (Slot slot : slots) {
            slot.awaitUp(Duration.ofMinutes(4));
        }
    }

    /** The name of the slot serving {@code base}. */
    String name(URL base) {
        return slots.stream().filter(s -> base.equals(s.base)).map(s -> s.name).findFirst().orElse(String.valueOf(base));
    }

    /** Whether the server at {@code base} is up. */
    boolean up(URL base) {
        return slots.stream().anyMatch(s -> s.up && s.base.equals(base));
    }

    /** A server that is up, at random; {@code null} when none is. */
    URL pick() {
        List<Slot> up = slots.stream().filter(s -> s.up).toList();
        return up.isEmpty() ? null : up.get(ThreadLocalRandom.current().nextInt(up.size())).base;
    }

    Slot assigner() {
        return slots.stream().filter(s -> s.up && s.server.role().equals("assigner")).findFirst()
                .orElseThrow(() -> new AssertionError("no server holds the assigner role"));
    }

    /** {@code kill -9}, then a fresh start of the same kind in the same slot; returns when it is up again. */
    void killAndRestart(Slot slot) throws InterruptedException {
        slot.up = false;
        slot.server.kill();
        slot.kills++;
        slot.start();
        slot.awaitUp(Duration.ofMinutes(4));
    }

    @Override
    public void close() throws InterruptedException {
        for (Slot slot : slots) {
            slot.up = false;
            if (slot.server != null) {
                slot.server.close();
            }
        }
    }
}
