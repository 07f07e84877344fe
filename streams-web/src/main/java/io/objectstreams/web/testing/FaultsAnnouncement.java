package io.objectstreams.web.testing;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;

/**
 * Has a test JVM that permits delivery faults say so at deployment ({@link DeliveryFaults#announce()}), not at its
 * first delivery, where the SEVERE line would land in a test's log watch.
 */
@Singleton
@Startup
public class FaultsAnnouncement {

    @PostConstruct
    void announce() {
        DeliveryFaults.announce();
    }
}
