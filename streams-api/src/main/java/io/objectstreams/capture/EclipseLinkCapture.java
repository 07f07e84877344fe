package io.objectstreams.capture;

import jakarta.enterprise.inject.spi.CDI;
import java.sql.Connection;
import org.eclipse.persistence.internal.databaseaccess.Accessor;
import org.eclipse.persistence.sessions.SessionEvent;
import org.eclipse.persistence.sessions.SessionEventAdapter;
import org.eclipse.persistence.sessions.server.ClientSession;

/**
 * Writes the outbox rows of a transaction through EclipseLink's own connection, just before EclipseLink commits
 * the unit of work's writes. Needed because Payara gives no second connection in the same transaction: a connection
 * taken during the commit is not enlisted at all, and one taken earlier cannot share the non-XA connection that
 * EclipseLink holds until the transaction completes (docs/capture.md, "How the rows join the transaction").
 *
 * <p>Registered per persistence unit with the property
 * {@code eclipselink.session-event-listener = io.objectstreams.capture.EclipseLinkCapture}. EclipseLink loads this
 * class only then; Hibernate never touches it.
 */
public class EclipseLinkCapture extends SessionEventAdapter {

    private ChangeRecorder recorder;

    /**
     * Raised by the client session that holds the transaction's write connection, after every insert, update and
     * delete of the unit of work has been sent and every entity callback has run. Commits of other sessions (the
     * server session's own, for instance) are not business transactions and pass through.
     */
    @Override
    public void preCommitTransaction(SessionEvent event) {
        if (event.getSession() instanceof ClientSession session && session.hasWriteConnection()) {
            // Internal EclipseLink API, stable since TopLink: the accessor wraps the JDBC connection it writes with.
            Accessor accessor = session.getWriteConnection();
            Connection connection = accessor.getConnection();
            if (connection != null) {
                recorder().beforeProviderCommit(connection);
            }
        }
    }

    private ChangeRecorder recorder() {
        if (recorder == null) {
            recorder = CDI.current().select(ChangeRecorder.class).get();
        }
        return recorder;
    }
}
