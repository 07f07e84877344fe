package io.objectstreams.internal.config;

import io.objectstreams.StreamsException;
import io.objectstreams.feed.HealthSettings;
import io.objectstreams.feed.ListenerSettings;
import io.objectstreams.feed.OutboxSettings;
import io.objectstreams.feed.RetentionSettings;
import io.objectstreams.feed.SchemaSettings;
import io.objectstreams.feed.TelemetrySettings;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.protocol.LibraryErrorCode;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;

/**
 * This deployment's {@code streams.*} settings, read once from MicroProfile Config by the record of each feature
 * that declares them ({@link OutboxSettings}, {@link ListenerSettings}, ...). A value that cannot work fails
 * deployment with a {@link StreamsException} naming the key (G14). The transports' settings are read from
 * {@link #values()} by {@code io.objectstreams.feed.TransportSettings}.
 */
@ApplicationScoped
public class StreamsConfig {

    @Inject
    Config config;

    private ConfigValues values;
    private OutboxSettings outbox;
    private SchemaSettings schema;
    private ListenerSettings listener;
    private HealthSettings health;
    private RetentionSettings retention;
    private TransportSettings transport;
    private TelemetrySettings telemetry;
    private volatile DataSource dataSource;

    @PostConstruct
    void load() {
        values = ConfigValues.of(config);
        outbox = OutboxSettings.from(values);
        schema = SchemaSettings.from(values);
        listener = ListenerSettings.from(values, outbox.notifyChannel());
        health = HealthSettings.from(values);
        retention = RetentionSettings.from(values);
        // Read with the rest, at deployment: a bad transport key must stop it (G14), not the first connection.
        transport = TransportSettings.from(values);
        telemetry = TelemetrySettings.from(values);
    }

    /** The settings the transports read, validated when this configuration was read. */
    public TransportSettings transport() {
        return transport;
    }

    /** Metrics and trace links. */
    public TelemetrySettings telemetry() {
        return telemetry;
    }

    /** This deployment's configuration, for the settings of other features; it warns once per deprecated key. */
    public ConfigValues values() {
        return values;
    }

    /**
     * A duration written as in configuration ({@code 90s}, {@code 30m}, {@code 7d}, ISO-8601), if it is one and
     * positive; for operator input that follows the same rules.
     */
    public static Optional<Duration> parseDuration(String text) {
        return Optional.ofNullable(text).flatMap(t -> Durations.parse(t, false))
                .filter(parsed -> !parsed.isNegative() && !parsed.isZero());
    }

    public RetentionSettings retention() {
        return retention;
    }

    public ListenerSettings listener() {
        return listener;
    }

    public Duration maxBacklogAge() {
        return health.maxBacklogAge();
    }

    public String notifyChannel() {
        return outbox.notifyChannel();
    }

    public boolean migrateSchema() {
        return schema.migrate();
    }

    public Duration migrateTimeout() {
        return schema.migrateTimeout();
    }

    /** The application's datasource, looked up once; a failed lookup names the key to fix. */
    public DataSource dataSource() {
        DataSource found = dataSource;
        if (found == null) {
            String name = outbox.dataSource();
            try {
                found = (DataSource) new InitialContext().lookup(name);
            } catch (NamingException | ClassCastException e) {
                throw new StreamsException(LibraryErrorCode.INVALID_CONFIGURATION,
                        OutboxSettings.DATASOURCE.key() + "=" + name
                        + " does not name a javax.sql.DataSource in JNDI (" + e + "); set it to the JNDI name of"
                        + " the application's PostgreSQL datasource, e.g. jdbc/store on Payara or java:/jdbc/store"
                        + " on WildFly", e);
            }
            dataSource = found;
        }
        return found;
    }

    /** For messages: the configured JNDI name. */
    public String dataSourceName() {
        return outbox.dataSource();
    }
}
