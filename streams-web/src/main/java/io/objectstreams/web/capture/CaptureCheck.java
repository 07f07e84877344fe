package io.objectstreams.web.capture;

import io.objectstreams.feed.CaptureControl;
import io.objectstreams.web.visibility.Visibility;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;

/**
 * Checks at deployment that the persistence units behind the visibility policies capture their
 * {@code @Streamed} entities ({@link CaptureSetup}): a unit that does not fails deployment with
 * {@code capture_not_configured} naming the mapping file to add (G1), since it would commit every change with no
 * outbox row and no error. Then starts trigger capture of those its tables capture ({@link CaptureControl}). A startup
 * singleton rather than a CDI startup observer: the policies are often session beans, which Payara refuses to
 * invoke while CDI is still initializing the application. Bean-managed, so that installing the triggers runs in a
 * transaction of its own rather than in a container one (WildFly refuses to commit a connection it enlisted).
 * After {@code FaultsAnnouncement}, so that a test JVM says it permits faults before a check can fail deployment.
 */
@Singleton
@Startup
@DependsOn("FaultsAnnouncement")
@TransactionManagement(TransactionManagementType.BEAN)
public class CaptureCheck {

    @Inject
    Visibility visibility;

    @Inject
    CaptureControl triggers;

    @PostConstruct
    void check() {
        CaptureSetup.Checked checked = CaptureSetup.check(visibility.persistenceUnits());
        // Then the tables captured by trigger: mapped, checked, installed when Object Streams owns the schema.
        triggers.start(checked.streamed(), checked.unchecked());
    }
}
