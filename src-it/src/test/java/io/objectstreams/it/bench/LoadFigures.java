package io.objectstreams.it.bench;

/**
 * What one load phase of {@link FanOutLoadBenchmark} measured.
 *
 * @param writesPerSecond     committed writes per second, all writers together
 * @param deliveriesPerSecond events received per second, all connections together, first write to last arrival
 * @param delivered           events received
 * @param owed                events owed (writes times the connections allowed to see them)
 * @param drainMillis         from the last write to the last arrival
 * @param unserved            owed connections that neither got every event nor a resync_required: silent losses
 * @param resyncs             resync_required received, by reason
 * @param bobEvents           events received by bob, who may read none of them
 * @param maxHealthMillis     the slowest readiness answer during the phase and its drain
 * @param maxHeapUsed         the most heap the server used (jstat samples)
 * @param gcMillis            server GC time during the phase
 * @param fullGcs             server full collections during the phase
 * @param maxQueuedBytes      the most bytes the server's outbound queues held (health samples)
 * @param maxUndelivered      the most cursors assigned but not yet fanned out (health samples)
 * @param serverCpuMillis     CPU the server process used during the phase (it also served the writes)
 * @param clientCpuMillis     CPU the benchmark's own process (writers and connections) used during the phase
 */
record LoadFigures(double writesPerSecond, double deliveriesPerSecond, long delivered, long owed, long drainMillis,
                   long unserved, String resyncs, long bobEvents, long maxHealthMillis, long maxHeapUsed, long gcMillis,
                   long fullGcs, long maxQueuedBytes, long maxUndelivered, long serverCpuMillis, long clientCpuMillis) {

    @Override
    public String toString() {
        return String.format("%.0f writes/s, %.0f deliveries/s (%d of %d owed), drained %d ms after the last write,"
                        + " %d unserved, resyncs %s, bob got %d, health <= %d ms, heap <= %d MB, GC %d ms (%d full),"
                        + " queued <= %.1f MB, undelivered cursors <= %d, CPU ms server %d client %d",
                writesPerSecond, deliveriesPerSecond, delivered, owed, drainMillis, unserved, resyncs, bobEvents,
                maxHealthMillis, maxHeapUsed >> 20, gcMillis, fullGcs, maxQueuedBytes / 1048576.0, maxUndelivered,
                serverCpuMillis, clientCpuMillis);
    }
}
