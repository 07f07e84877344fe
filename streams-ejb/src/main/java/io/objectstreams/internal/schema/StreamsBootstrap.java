package io.objectstreams.internal.schema;

import io.objectstreams.feed.ProcessLimits;
import io.objectstreams.internal.config.StreamsConfig;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Runs at deployment: validates the configuration (a bad value fails deployment naming its key, G14) and
 * brings the schema up to date before the application can write. A database that cannot be reached yet (a
 * server starting while PostgreSQL restarts) is waited for, up to {@code streams.schema.migrate-timeout}.
 *
 * <p>Bean-managed so the migration runs in its own local transaction, not in a container one.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class StreamsBootstrap {

    private static final Logger LOG = Logger.getLogger(StreamsBootstrap.class.getName());

    @Inject
    StreamsConfig config;

    @PostConstruct
    void start() {
        String channel = config.notifyChannel();
        if (config.migrateSchema()) {
            SchemaMigrator.migrate(config.dataSource(), config.migrateTimeout());
        } else {
            LOG.info("Object Streams schema migration is off (streams.schema.migrate=false)");
        }
        // What the connection settings ask of this process, checked once: a limit met only at run time would show as
        // "Too many open files" or an OutOfMemoryError, with readiness no longer answering.
        ProcessLimits process = ProcessLimits.now();
        process.warnings(config.transport().connections()).forEach(LOG::warning);
        if (process.admitsNoConnection(config.transport().connections())) {
            LOG.severe("Object Streams will refuse every connection: the process's open-file limit leaves none after"
                    + " the files open now and streams.connections.reserved-files (docs/operations.md)");
        }
        LOG.info(() -> "Object Streams ready: datasource " + config.dataSourceName() + ", notify channel " + channel);
    }

    /**
     * Returns once the schema is up to date (or migration is off): the container runs {@link #start} before any call
     * of a singleton's methods. For startup work of other modules that needs the schema, which {@code @DependsOn}
     * cannot name across an EAR's modules: trigger capture records its mappings in a table of schema V6.
     */
    public void awaitSchema() {
        // Nothing to do: being called is the wait.
    }
}
