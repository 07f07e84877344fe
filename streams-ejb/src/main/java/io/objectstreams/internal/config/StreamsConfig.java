package io.objectstreams.internal.config;

import io.objectstreams.StreamsException;
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

    /**
     * How long deployment keeps retrying the migration while the database cannot be reached (refused, restarting,
     * a pooled connection it killed) before it fails; zero tries once.
     */
    public static final String SCHEMA_MIGRATE_TIMEOUT = "streams.schema.migrate-timeout";
    public static final Duration DEFAULT_SCHEMA_MIGRATE_TIMEOUT = Duration.ofSeconds(60);

    /** JDBC URL of the listener's own, unpooled connection (LISTEN is session state a pool would leak). Required. */
    public static final String LISTENER_URL = "streams.listener.url";
    /** User and password of the listener's connection; may also be given in the URL. */
    public static final String LISTENER_USER = "streams.listener.user";
    public static final String LISTENER_PASSWORD = "streams.listener.password";

    /** The channel on which the assigner announces new cursors to every instance. */
    public static final String CURSOR_CHANNEL = "streams.cursor-channel";
    public static final String DEFAULT_CURSOR_CHANNEL = "object_streams_cursors";

    /** The poll floor: the listener drains at least this often even if no wakeup arrives (G6). */
    public static final String POLL_INTERVAL = "streams.listener.poll-interval";
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

    /** First delay before reconnecting after the listener's connection fails; doubles up to the maximum. */
    public static final String RETRY_DELAY = "streams.listener.retry-delay";
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(1);
    public static final String MAX_RETRY_DELAY = "streams.listener.max-retry-delay";
    public static final Duration DEFAULT_MAX_RETRY_DELAY = Duration.ofSeconds(30);

    /**
     * How long a listener session may stay unresponsive before it counts as dead. The database is asked to drop
     * such a session of ours (server-side TCP keep-alive and {@code tcp_user_timeout}), and an assigner whose
     * session has been idle that long is fenced by another instance, which then takes the role (G7). At least
     * three poll intervals.
     */
    public static final String DEAD_SESSION_TIMEOUT = "streams.listener.dead-session-timeout";
    public static final Duration DEFAULT_DEAD_SESSION_TIMEOUT = Duration.ofSeconds(30);

    /** Consecutive failed reconnects after which the listener gives up (liveness goes DOWN); -1 retries forever. */
    public static final String MAX_RETRIES = "streams.listener.max-retries";
    public static final int DEFAULT_MAX_RETRIES = -1;

    /** Rows given cursors, or read for delivery, per statement. */
    public static final String BATCH_SIZE = "streams.listener.batch-size";
    public static final int DEFAULT_BATCH_SIZE = 1000;

    /** Readiness is DOWN when a committed row has waited longer than this for its cursor (G13). */
    public static final String MAX_BACKLOG_AGE = "streams.health.max-backlog-age";
    public static final Duration DEFAULT_MAX_BACKLOG_AGE = Duration.ofSeconds(30);

    /** Active subscriptions per WebSocket connection. */
    public static final String MAX_SUBSCRIPTIONS = "streams.websocket.max-subscriptions";
    public static final int DEFAULT_MAX_SUBSCRIPTIONS = 100;

    /** The largest client frame the protocol accepts; a larger one gets an error and the session stays open. */
    public static final String MAX_FRAME_BYTES = "streams.websocket.max-frame-bytes";
    public static final int DEFAULT_MAX_FRAME_BYTES = 65_536;

    /** Objects one filter or model subscription may hold; checked with a bounded query before it starts. */
    public static final String MAX_MEMBER_PKS = "streams.websocket.max-member-pks";
    public static final int DEFAULT_MAX_MEMBER_PKS = 10_000;

    /**
     * Member pks all filter and model subscriptions of one connection may hold together when one more starts;
     * at least {@link #MAX_MEMBER_PKS}.
     */
    public static final String MAX_CONNECTION_MEMBER_PKS = "streams.websocket.max-connection-member-pks";
    public static final int DEFAULT_MAX_CONNECTION_MEMBER_PKS = 100_000;

    /** Connections of every transport this instance accepts at once. */
    public static final String MAX_CONNECTIONS = "streams.connections.max";
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;

    /** Connections one authenticated principal may hold at once on this instance (anonymous ones: see the docs). */
    public static final String MAX_CONNECTIONS_PER_PRINCIPAL = "streams.connections.max-per-principal";
    public static final int DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL = 1_000;

    /** Replaced by the byte budgets below; setting it stops deployment with a message naming them. */
    public static final String OUTBOUND_QUEUE = "streams.websocket.outbound-queue";

    /**
     * Bytes of messages queued for one connection, on any transport, before its queued events are dropped and
     * its subscriptions told to resync ({@code slow_consumer}).
     */
    public static final String MAX_CONNECTION_BYTES = "streams.outbound.max-connection-bytes";
    public static final long DEFAULT_MAX_CONNECTION_BYTES = 1L << 20;

    /**
     * Bytes of messages queued for all connections of this instance together; past it, a connection may only
     * hold its fair share. Keeps the heap safe whatever the number of connections (G15).
     */
    public static final String MAX_SERVER_BYTES = "streams.outbound.max-server-bytes";
    public static final long DEFAULT_MAX_SERVER_BYTES = 64L << 20;

    /**
     * How long a WebSocket connection may go without a message in either direction before the server closes it;
     * 0 (the default): never, whatever the container's own default. A subscriber that only listens is idle
     * whenever nothing changes.
     */
    public static final String MAX_IDLE = "streams.websocket.max-idle";
    public static final Duration DEFAULT_MAX_IDLE = Duration.ZERO;

    /**
     * How often the server pings each WebSocket connection; a connection that has answered nothing (no pong, no
     * message) for two intervals is closed as unresponsive. 0: never ping. Catches connections whose client is gone
     * without the container noticing, which would otherwise hold their slot and subscriptions for good.
     */
    public static final String PING_INTERVAL = "streams.websocket.ping-interval";
    public static final Duration DEFAULT_PING_INTERVAL = Duration.ofSeconds(30);

    /**
     * How often an SSE stream gets a {@code : ping} comment when its request names no {@code heartbeat}. A stream
     * whose client has gone is noticed when a write to it fails, so this also bounds how long such a stream is held.
     */
    public static final String SSE_HEARTBEAT = "streams.sse.heartbeat";
    public static final Duration DEFAULT_SSE_HEARTBEAT = Duration.ofSeconds(25);
    /** The shortest and longest heartbeat, configured or asked for by a request. */
    public static final Duration MIN_SSE_HEARTBEAT = Duration.ofSeconds(1);
    public static final Duration MAX_SSE_HEARTBEAT = Duration.ofMinutes(5);

    /** How long an SSE stream stays open when its request names no {@code lifetime}; then it ends and the client resumes. */
    public static final String SSE_LIFETIME = "streams.sse.lifetime";
    public static final Duration DEFAULT_SSE_LIFETIME = Duration.ofMinutes(30);
    /** The shortest and longest lifetime, configured or asked for by a request. */
    public static final Duration MIN_SSE_LIFETIME = Duration.ofSeconds(1);
    public static final Duration MAX_SSE_LIFETIME = Duration.ofHours(4);

    /** Threads that send queued messages, so the delivery thread never waits on a send. */
    public static final String SENDER_THREADS = "streams.websocket.sender-threads";
    public static final int DEFAULT_SENDER_THREADS = Runtime.getRuntime().availableProcessors();

    /**
     * Origins (scheme://host[:port]) whose pages may open a WebSocket, besides the application's own origin;
     * {@code *} allows any. Empty: same origin only.
     */
    public static final String ALLOWED_ORIGINS = "streams.websocket.allowed-origins";

    /** Missed events an object subscription replays before it is told to resync instead. */
    public static final String REPLAY_LIMIT = "streams.replay-limit";
    public static final int DEFAULT_REPLAY_LIMIT = 1000;

    /** Whether every JAX-RS response carries the {@code Streams-Cursor} header, not only {@code @StreamsCursor} ones. */
    public static final String CURSOR_HEADER = "streams.rest.cursor-header";

    /**
     * Whether WebSocket sessions on Tyrus (Payara) skip the container's idle-timer task that Tyrus schedules on every
     * send and pong, which never acts since Object Streams turns the container's idle timeout off.
     */
    public static final String SKIP_CONTAINER_IDLE_TIMER = "streams.websocket.skip-container-idle-timer";

    /** Assigned outbox rows older than this are deleted; unset (the default) keeps rows of any age. */
    public static final String RETENTION_MAX_AGE = "streams.retention.max-age";

    /** At most this many assigned outbox rows are kept; unset (the default) keeps any number. */
    public static final String RETENTION_MAX_ROWS = "streams.retention.max-rows";

    /** How often the pruning task runs (on one instance at a time). */
    public static final String RETENTION_INTERVAL = "streams.retention.interval";
    public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofHours(1);

    /** Rows deleted per transaction; each batch is its own short transaction. */
    public static final String RETENTION_BATCH_SIZE = "streams.retention.batch-size";
    public static final int DEFAULT_RETENTION_BATCH_SIZE = 10_000;

    @Inject
    Config config;

    private String dataSourceName;
    private String notifyChannel;
    private boolean migrateSchema;
    private Duration migrateTimeout;
    private ListenerSettings listener;
    private RetentionSettings retention;
    private boolean cursorHeaderEverywhere;
    private boolean skipContainerIdleTimer;
    private Duration maxBacklogAge;
    private int maxSubscriptions;
    private int replayLimit;
    private int maxFrameBytes;
    private int maxMemberPks;
    private int maxConnectionMemberPks;
    private int maxConnections;
    private int maxConnectionsPerPrincipal;
    private long maxConnectionBytes;
    private long maxServerBytes;
    private Duration maxIdle;
    private Duration pingInterval;
    private Duration sseHeartbeat;
    private Duration sseLifetime;
    private int senderThreads;
    private java.util.Set<String> allowedOrigins;
    private volatile DataSource dataSource;

    @PostConstruct
    void load() {
        dataSourceName = ConfigRules.requireText(DATASOURCE, config.getOptionalValue(DATASOURCE, String.class));
        notifyChannel = ConfigRules.channelName(NOTIFY_CHANNEL,
                config.getOptionalValue(NOTIFY_CHANNEL, String.class).orElse(DEFAULT_NOTIFY_CHANNEL));
        migrateSchema = ConfigRules.bool(SCHEMA_MIGRATE, text(SCHEMA_MIGRATE), DEFAULT_SCHEMA_MIGRATE);
        migrateTimeout = ConfigRules.durationOrZero(SCHEMA_MIGRATE_TIMEOUT, text(SCHEMA_MIGRATE_TIMEOUT),
                DEFAULT_SCHEMA_MIGRATE_TIMEOUT);
        String cursorChannel = ConfigRules.channelName(CURSOR_CHANNEL, text(CURSOR_CHANNEL).orElse(DEFAULT_CURSOR_CHANNEL));
        if (cursorChannel.equals(notifyChannel)) {
            throw ConfigRules.invalid(CURSOR_CHANNEL, "must differ from " + NOTIFY_CHANNEL + " ('" + notifyChannel + "')");
        }
        Duration retryDelay = ConfigRules.duration(RETRY_DELAY, text(RETRY_DELAY), DEFAULT_RETRY_DELAY);
        listener = new ListenerSettings(
                ConfigRules.requireText(LISTENER_URL, text(LISTENER_URL)),
                text(LISTENER_USER).orElse(null),
                config.getOptionalValue(LISTENER_PASSWORD, String.class).orElse(null),
                notifyChannel,
                cursorChannel,
                ConfigRules.duration(POLL_INTERVAL, text(POLL_INTERVAL), DEFAULT_POLL_INTERVAL),
                retryDelay,
                ConfigRules.atLeast(MAX_RETRY_DELAY,
                        ConfigRules.duration(MAX_RETRY_DELAY, text(MAX_RETRY_DELAY), DEFAULT_MAX_RETRY_DELAY), retryDelay),
                ConfigRules.integer(MAX_RETRIES, text(MAX_RETRIES), DEFAULT_MAX_RETRIES, -1, Integer.MAX_VALUE),
                ConfigRules.integer(BATCH_SIZE, text(BATCH_SIZE), DEFAULT_BATCH_SIZE, 1, 100_000),
                deadSessionTimeout(ConfigRules.duration(POLL_INTERVAL, text(POLL_INTERVAL), DEFAULT_POLL_INTERVAL)));
        maxBacklogAge = ConfigRules.duration(MAX_BACKLOG_AGE, text(MAX_BACKLOG_AGE), DEFAULT_MAX_BACKLOG_AGE);
        maxSubscriptions = ConfigRules.integer(MAX_SUBSCRIPTIONS, text(MAX_SUBSCRIPTIONS), DEFAULT_MAX_SUBSCRIPTIONS,
                1, 100_000);
        replayLimit = ConfigRules.integer(REPLAY_LIMIT, text(REPLAY_LIMIT), DEFAULT_REPLAY_LIMIT, 0, 1_000_000);
        maxFrameBytes = ConfigRules.integer(MAX_FRAME_BYTES, text(MAX_FRAME_BYTES), DEFAULT_MAX_FRAME_BYTES,
                1_024, 1_048_576);
        maxMemberPks = ConfigRules.integer(MAX_MEMBER_PKS, text(MAX_MEMBER_PKS), DEFAULT_MAX_MEMBER_PKS, 1, 10_000_000);
        maxConnectionMemberPks = ConfigRules.integer(MAX_CONNECTION_MEMBER_PKS, text(MAX_CONNECTION_MEMBER_PKS),
                Math.max(DEFAULT_MAX_CONNECTION_MEMBER_PKS, maxMemberPks), maxMemberPks, 100_000_000);
        maxConnections = ConfigRules.integer(MAX_CONNECTIONS, text(MAX_CONNECTIONS), DEFAULT_MAX_CONNECTIONS, 1, 10_000_000);
        maxConnectionsPerPrincipal = ConfigRules.integer(MAX_CONNECTIONS_PER_PRINCIPAL,
                text(MAX_CONNECTIONS_PER_PRINCIPAL), Math.min(DEFAULT_MAX_CONNECTIONS_PER_PRINCIPAL, maxConnections),
                1, maxConnections);
        if (text(OUTBOUND_QUEUE).isPresent()) {
            throw ConfigRules.invalid(OUTBOUND_QUEUE, "is no longer read: the outbound queue is bounded in bytes."
                    + " Remove it and set " + MAX_CONNECTION_BYTES + " (and " + MAX_SERVER_BYTES + ") instead");
        }
        maxServerBytes = ConfigRules.bytes(MAX_SERVER_BYTES, text(MAX_SERVER_BYTES), DEFAULT_MAX_SERVER_BYTES,
                64L << 10, 1L << 40);
        maxConnectionBytes = ConfigRules.bytes(MAX_CONNECTION_BYTES, text(MAX_CONNECTION_BYTES),
                Math.min(DEFAULT_MAX_CONNECTION_BYTES, maxServerBytes), 16L << 10, maxServerBytes);
        maxIdle = ConfigRules.durationOrZero(MAX_IDLE, text(MAX_IDLE), DEFAULT_MAX_IDLE);
        pingInterval = ConfigRules.durationOrZero(PING_INTERVAL, text(PING_INTERVAL), DEFAULT_PING_INTERVAL,
                Duration.ofMillis(100));
        sseHeartbeat = ConfigRules.duration(SSE_HEARTBEAT, text(SSE_HEARTBEAT), DEFAULT_SSE_HEARTBEAT,
                MIN_SSE_HEARTBEAT, MAX_SSE_HEARTBEAT);
        sseLifetime = ConfigRules.duration(SSE_LIFETIME, text(SSE_LIFETIME), DEFAULT_SSE_LIFETIME,
                MIN_SSE_LIFETIME, MAX_SSE_LIFETIME);
        senderThreads = ConfigRules.integer(SENDER_THREADS, text(SENDER_THREADS), DEFAULT_SENDER_THREADS, 1, 256);
        allowedOrigins = ConfigRules.origins(ALLOWED_ORIGINS, text(ALLOWED_ORIGINS).orElse(""));
        cursorHeaderEverywhere = ConfigRules.bool(CURSOR_HEADER, text(CURSOR_HEADER), false);
        skipContainerIdleTimer = ConfigRules.bool(SKIP_CONTAINER_IDLE_TIMER, text(SKIP_CONTAINER_IDLE_TIMER), true);
        retention = retention(text(RETENTION_MAX_AGE), text(RETENTION_MAX_ROWS), text(RETENTION_INTERVAL),
                text(RETENTION_BATCH_SIZE));
    }

    /**
     * A duration written as in configuration ({@code 90s}, {@code 30m}, {@code 7d}, ISO-8601), if it is one and
     * positive; for operator input that follows the same rules.
     */
    public static Optional<Duration> parseDuration(String text) {
        Duration parsed = text == null ? null : ConfigRules.parseDuration(text.trim());
        return parsed == null || parsed.isNegative() || parsed.isZero() ? Optional.empty() : Optional.of(parsed);
    }

    /** The retention keys, validated; public for the unit tests of their rules. */
    public static RetentionSettings retention(Optional<String> maxAge, Optional<String> maxRows, Optional<String> interval,
                                              Optional<String> batchSize) {
        Duration age = maxAge.isPresent() ? ConfigRules.duration(RETENTION_MAX_AGE, maxAge, null) : null;
        if (age != null && age.compareTo(RetentionSettings.MIN_MAX_AGE) < 0) {
            throw ConfigRules.invalid(RETENTION_MAX_AGE, "(" + maxAge.get() + ") must be at least "
                    + RetentionSettings.MIN_MAX_AGE.toMinutes() + " minute: younger rows may still be on their way to"
                    + " clients, and a client that reconnects within seconds must be able to replay");
        }
        long rows = ConfigRules.number(RETENTION_MAX_ROWS, maxRows, 0, 1, Long.MAX_VALUE);
        Duration every = ConfigRules.atLeast(RETENTION_INTERVAL,
                ConfigRules.duration(RETENTION_INTERVAL, interval, DEFAULT_RETENTION_INTERVAL), Duration.ofSeconds(1));
        int batch = ConfigRules.integer(RETENTION_BATCH_SIZE, batchSize, DEFAULT_RETENTION_BATCH_SIZE, 1, 1_000_000);
        return new RetentionSettings(age, rows, every, batch);
    }

    private Duration deadSessionTimeout(Duration pollInterval) {
        Duration floor = pollInterval.multipliedBy(3);
        Duration timeout = ConfigRules.duration(DEAD_SESSION_TIMEOUT, text(DEAD_SESSION_TIMEOUT),
                DEFAULT_DEAD_SESSION_TIMEOUT.compareTo(floor) >= 0 ? DEFAULT_DEAD_SESSION_TIMEOUT : floor);
        if (timeout.compareTo(floor) < 0) {
            throw ConfigRules.invalid(DEAD_SESSION_TIMEOUT, "must be at least three poll intervals ("
                    + floor.toMillis() + " ms with " + POLL_INTERVAL + " = " + pollInterval.toMillis() + " ms), got "
                    + timeout.toMillis() + " ms: a live assigner may be idle for a whole poll interval");
        }
        return timeout;
    }

    public int maxMemberPks() {
        return maxMemberPks;
    }

    public long maxConnectionBytes() {
        return maxConnectionBytes;
    }

    public int maxConnectionMemberPks() {
        return maxConnectionMemberPks;
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int maxConnectionsPerPrincipal() {
        return maxConnectionsPerPrincipal;
    }

    public long maxServerBytes() {
        return maxServerBytes;
    }

    public int senderThreads() {
        return senderThreads;
    }

    /** {@link Duration#ZERO} for never. */
    public Duration maxIdle() {
        return maxIdle;
    }

    /** {@link Duration#ZERO} for never. */
    public Duration pingInterval() {
        return pingInterval;
    }

    /** {@value #SSE_HEARTBEAT} */
    public Duration sseHeartbeat() {
        return sseHeartbeat;
    }

    /** {@value #SSE_LIFETIME} */
    public Duration sseLifetime() {
        return sseLifetime;
    }

    /** Allowed foreign origins, normalized ({@code scheme://host:port}, lower case); {@code *} for any. */
    public java.util.Set<String> allowedOrigins() {
        return allowedOrigins;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    public int maxSubscriptions() {
        return maxSubscriptions;
    }

    public int replayLimit() {
        return replayLimit;
    }

    private Optional<String> text(String key) {
        return ConfigRules.present(config.getOptionalValue(key, String.class));
    }

    public boolean cursorHeaderEverywhere() {
        return cursorHeaderEverywhere;
    }

    public boolean skipContainerIdleTimer() {
        return skipContainerIdleTimer;
    }

    public RetentionSettings retention() {
        return retention;
    }

    public ListenerSettings listener() {
        return listener;
    }

    public Duration maxBacklogAge() {
        return maxBacklogAge;
    }

    public String notifyChannel() {
        return notifyChannel;
    }

    public boolean migrateSchema() {
        return migrateSchema;
    }

    public Duration migrateTimeout() {
        return migrateTimeout;
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
                        + " the application's PostgreSQL datasource, e.g. jdbc/store on Payara or java:/jdbc/store on WildFly", e);
            }
            dataSource = found;
        }
        return found;
    }

    /** For messages: the configured JNDI name. */
    public String dataSourceName() {
        return dataSourceName;
    }
}
