package io.objectstreams.feed;

import io.objectstreams.internal.health.CaptureReport;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * What the transports' module may ask of trigger capture: to start it once the deployment knows its
 * {@code @Streamed} entities, what is wrong with it now, and the SQL a DBA runs to install it.
 */
public interface CaptureControl {

    /**
     * Maps, checks and (when it owns the schema) installs the capture of {@code streamed}, the application's
     * {@code @Streamed} entities; {@code unchecked} is what the deployment could not check about capture, reported as
     * warnings in readiness with the tables' findings. A mapping triggers cannot follow, or an entity configured for
     * both paths, fails deployment naming it.
     */
    void start(Collection<Class<?>> streamed, List<String> unchecked);

    /** What is wrong now, as of the last check. */
    CaptureReport report();

    /** The SQL that installs every trigger-captured table's capture as this deployment maps it: for a DBA. */
    String script() throws SQLException;
}
