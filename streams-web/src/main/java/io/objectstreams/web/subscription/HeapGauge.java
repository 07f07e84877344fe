package io.objectstreams.web.subscription;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Whether the heap is too full to take another connection: the old generation (the pool long-lived objects, such as a
 * connection's buffers and subscriptions, end up in) still holds more than a share of its maximum after the last
 * collection that swept it. What a collection could not free is a floor no garbage can hide; the heap in use at any
 * moment is not, so it is never asked.
 */
final class HeapGauge implements BooleanSupplier {

    private final List<MemoryPoolMXBean> oldPools;
    private final int percent;

    /** {@code percent} of 100 turns it off. */
    HeapGauge(int percent) {
        this.percent = percent;
        this.oldPools = percent >= 100 ? List.of() : ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
                .filter(pool -> !pool.getName().contains("Eden") && !pool.getName().contains("Survivor"))
                .toList();
    }

    /** True while some old pool's usage after its last collection is above the share of its maximum. */
    @Override
    public boolean getAsBoolean() {
        for (MemoryPoolMXBean pool : oldPools) {
            MemoryUsage afterCollection = pool.getCollectionUsage();
            if (afterCollection != null && afterCollection.getMax() > 0
                    && afterCollection.getUsed() * 100 > afterCollection.getMax() * percent) {
                return true;
            }
        }
        return false;
    }

    int percent() {
        return percent;
    }
}
