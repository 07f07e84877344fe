package io.objectstreams.internal.config;

import io.objectstreams.StreamsException;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.Config;

/**
 * Every {@code streams.*} setting, read once from MicroProfile Config and validated. A value that cannot
 * work fails deployment with a {@link StreamsException} naming the key (G14). The keys and defaults are
 * listed in {@code docs/configuration.md}.
 */
@ApplicationScoped
public class StreamsConfig {

    /** JNDI name of the application's JTA datasource; outbox rows are written through it. Required. */
    public static final String DATASOURCE = "streams.datasource";

    /** The PostgreSQL channel the post-commit wakeup is sent on. */
    public static final String NOTIFY_CHANNEL = "streams.notify-channel";
    public static final String DEFAULT_NOTIFY_CHANNEL = "object_streams_events";

    /** Whether deployment applies the schema migrations; turn off when a DBA manages the schema. */
    public static final String SCHEMA_MIGRATE = "streams.schema.migrate";
    public static final boolean DEFAULT_SCHEMA_MIGRATE = true;

    @Inject
    Config config;

    private String dataSourceName;
    private String notifyChannel;
    private boolean migrateSchema;
    private volatile DataSource dataSource;

    @PostConstruct
    void load() {
        dataSourceName = ConfigRules.requireText(DATASOURCE, config.getOptionalValue(DATASOURCE, String.class));
        notifyChannel = ConfigRules.channelName(NOTIFY_CHANNEL,
                config.getOptionalValue(NOTIFY_CHANNEL, String.class).orElse(DEFAULT_NOTIFY_CHANNEL));
        migrateSchema = ConfigRules.bool(SCHEMA_MIGRATE, config.getOptionalValue(SCHEMA_MIGRATE, String.class),
                DEFAULT_SCHEMA_MIGRATE);
    }

    public String notifyChannel() {
        return notifyChannel;
    }

    public boolean migrateSchema() {
        return migrateSchema;
    }

    /** The application's datasource, looked up once; a failed lookup names the key to fix. */
    public DataSource dataSource() {
        DataSource found = dataSource;
        if (found == null) {
            try {
                found = (DataSource) new InitialContext().lookup(dataSourceName);
            } catch (NamingException | ClassCastException e) {
                throw new StreamsException("invalid_configuration", DATASOURCE + "=" + dataSourceName
                        + " does not name a javax.sql.DataSource in JNDI (" + e + "); set it to the JNDI name of"
                        + " the application's PostgreSQL datasource, e.g. java:app/jdbc/store", e);
            }
            dataSource = found;
        }
        return found;
    }

    /** For messages: the configured JNDI name. */
    public String dataSourceName() {
        return dataSourceName;
    }

    static Optional<String> present(Optional<String> value) {
        return value.map(String::trim).filter(v -> !v.isEmpty());
    }
}
