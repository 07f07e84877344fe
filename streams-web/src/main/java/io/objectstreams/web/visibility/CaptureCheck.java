package io.objectstreams.web.visibility;

import io.objectstreams.web.testing.DeliveryFaults;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;

/**
 * Checks at deployment that the persistence units behind the visibility policies capture their
 * {@code @Streamed} entities ({@link Visibility#checkCapture()}); a failure stops deployment. A startup
 * singleton rather than a CDI startup observer: the policies are often session beans, which Payara refuses to
 * invoke while CDI is still initializing the application.
 */
@Singleton
@Startup
public class CaptureCheck {

    @Inject
    Visibility visibility;

    @PostConstruct
    void check() {
        // A test JVM that permits delivery faults says so at deployment, not at its first delivery.
        DeliveryFaults.announce();
        visibility.checkCapture();
    }
}
