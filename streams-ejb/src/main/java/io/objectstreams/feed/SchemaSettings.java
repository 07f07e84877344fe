package io.objectstreams.feed;

import io.objectstreams.internal.config.ConfigValues;
import io.objectstreams.internal.config.Setting;
import java.time.Duration;

/** Whether and how deployment applies the schema migrations; each constant's doc says more. */
public record SchemaSettings(boolean migrate, Duration migrateTimeout) {

    public static final Setting<Boolean> MIGRATE = Setting.bool("streams.schema.migrate", true,
            "Whether deployment applies the schema migrations; turn off when a DBA manages the schema.");

    public static final Setting<Duration> MIGRATE_TIMEOUT = Setting.durationOrZero("streams.schema.migrate-timeout",
            Duration.ofSeconds(60), null,
            "How long deployment retries the migration while the database cannot be reached; 0 tries once.");

    public static SchemaSettings from(ConfigValues values) {
        return new SchemaSettings(values.get(MIGRATE), values.get(MIGRATE_TIMEOUT));
    }
}
