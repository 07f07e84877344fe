package io.objectstreams.micro;

import jakarta.annotation.sql.DataSourceDefinition;

/**
 * The demo store's datasource on Payara Micro, from environment variables (Payara expands {@code ${ENV=...}}
 * in datasource definitions; the part after the colon is the default):
 * {@code STREAMS_DB_HOST}, {@code STREAMS_DB_PORT}, {@code STREAMS_DB_NAME}, {@code STREAMS_DB_USER},
 * {@code STREAMS_DB_PASSWORD}, and {@code STREAMS_DB_DATASOURCE_CLASS} to switch to
 * {@code org.postgresql.xa.PGXADataSource}.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/store",
        className = "${ENV=STREAMS_DB_DATASOURCE_CLASS:org.postgresql.ds.PGSimpleDataSource}",
        serverName = "${ENV=STREAMS_DB_HOST:localhost}",
        databaseName = "${ENV=STREAMS_DB_NAME:postgres}",
        user = "${ENV=STREAMS_DB_USER:postgres}",
        password = "${ENV=STREAMS_DB_PASSWORD:postgres}",
        properties = {
                "portNumber=${ENV=STREAMS_DB_PORT:5432}",
                // Pooled connections die with a database restart; validate before use so the application
                // recovers by itself (G6 asks the same of the listener).
                "fish.payara.is-connection-validation-required=true",
                "fish.payara.connection-validation-method=auto-commit",
                "fish.payara.fail-all-connections=true"},
        minPoolSize = 2,
        maxPoolSize = 32)
public class StoreDataSource {
}
