package io.objectstreams.web.visibility;

import io.objectstreams.internal.trigger.TriggerCapture;
import io.objectstreams.web.testing.DeliveryFaults;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;

/**
 * Checks at deployment that the persistence units behind the visibility policies capture their
 * {@code @Streamed} entities ({@link Visibility#checkCapture()}), and starts trigger capture of those its tables
 * capture ({@link TriggerCapture}); a failure stops deployment. A startup
 * singleton rather than a CDI startup observer: the policies are often session beans, which Payara refuses to
 * invoke while CDI is still initializing the application. Bean-managed, so that installing the triggers runs in a
 * transaction of its own rather than in a container one (WildFly refuses to commit a connection it enlisted).
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class CaptureCheck {

    @Inject
    Visibility visibility;

    @Inject
    TriggerCapture triggers;

    @PostConstruct
    void check() {
        // A test JVM that permits delivery faults says so at deployment, not at its first delivery.
        DeliveryFaults.announce();
        // Then the tables captured by trigger: mapped, checked, installed when Object Streams owns the schema.
        CaptureSetup.Checked checked = visibility.checkCapture();
        triggers.start(checked.streamed(), checked.unchecked());
    }
}
