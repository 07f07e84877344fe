package io.objectstreams.demo.store;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.ext.ContextResolver;
import jakarta.ws.rs.ext.Provider;

/**
 * One JSON-B instance for every request body the store reads. Without a resolver, RESTEasy (WildFly) builds a
 * {@code Jsonb} for each body and closes it afterwards; building one looks the JSON-B and JSON-P providers up
 * through {@code ServiceLoader}, which scans the deployment's jars, and showed up plainly in the server's
 * allocation under the fan-out benchmark's writes (figures in docs/benchmarks.md). Jakarta REST 3.1 requires
 * implementations to use the instance a {@code ContextResolver<Jsonb>} supplies; a {@code Jsonb} is thread-safe.
 */
@Provider
public class JsonbResolver implements ContextResolver<Jsonb> {

    private final Jsonb jsonb = JsonbBuilder.create();

    @Override
    public Jsonb getContext(Class<?> type) {
        return jsonb;
    }
}
