package io.objectstreams.it.support.server;

import io.objectstreams.StreamBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The soak's record of delivery batches: each batch this server fans out, as {@code (server, first, last)} in
 * {@code it_batches}, so the oracle knows which rows one batch held (a delete supersedes only its own batch's earlier
 * events). Active only on a soak server ({@code SOAK_SLOT} names it). A batch that cannot be written (the database
 * is restarting) is kept and written with the next one.
 */
@ApplicationScoped
public class SoakBatchLog {

    private static final String SLOT = System.getenv("SOAK_SLOT");

    @Inject
    @ConfigProperty(name = "streams.datasource")
    String dataSourceName;

    private final List<long[]> pending = new ArrayList<>();

    void onBatch(@Observes StreamBatch batch) {
        if (SLOT == null) {
            return;
        }
        synchronized (pending) {
            pending.add(new long[] {batch.firstCursor(), batch.lastCursor()});
            try (Connection connection = ((DataSource) new InitialContext().lookup(dataSourceName)).getConnection();
                 PreparedStatement insert = connection.prepareStatement(
                         "INSERT INTO it_batches (server, first_cursor, last_cursor) VALUES (?, ?, ?)")) {
                for (long[] range : pending) {
                    insert.setString(1, SLOT);
                    insert.setLong(2, range[0]);
                    insert.setLong(3, range[1]);
                    insert.addBatch();
                }
                insert.executeBatch();
                pending.clear();
            } catch (NamingException | SQLException | RuntimeException e) {
                // Kept for the next batch: the database is away for a moment.
            }
        }
    }
}
