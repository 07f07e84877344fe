package io.objectstreams.web.subscription;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Whether the heap is too full to take another connection: what the heap's pools still held after their last
 * collections, together, against the maximum heap. What a collection could not free is a floor no garbage can hide;
 * the heap in use at any moment is not, so it is never asked. Before a pool's first collection it counts nothing:
 * the check starts with the first collection of the old generation.
 *
 * <p>The maximum is the whole heap, not the old generation's: with the serial or parallel collector the old
 * generation is two thirds of the heap, and a share of it would refuse connections far below the share of the heap
 * the setting names.
 */
final class HeapGauge implements BooleanSupplier {

    private final List<MemoryPoolMXBean> pools;
    private final long maxHeap;
    private final int percent;

    /** {@code percent} of 100 turns it off. */
    HeapGauge(int percent) {
        this.percent = percent;
        this.maxHeap = Runtime.getRuntime().maxMemory();
        this.pools = percent >= 100 || maxHeap == Long.MAX_VALUE ? List.of() : ManagementFactory.getMemoryPoolMXBeans()
                .stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
                .toList();
    }

    /** True while the heap held after the last collections is above the share of the maximum heap. */
    @Override
    public boolean getAsBoolean() {
        long held = 0;
        for (MemoryPoolMXBean pool : pools) {
            MemoryUsage afterCollection = pool.getCollectionUsage();
            if (afterCollection != null) {
                held += afterCollection.getUsed();
            }
        }
        return !pools.isEmpty() && held > maxHeap / 100 * percent;
    }

    int percent() {
        return percent;
    }
}
