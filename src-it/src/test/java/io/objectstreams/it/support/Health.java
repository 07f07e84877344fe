package io.objectstreams.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads MicroProfile Health from a server and picks out the listener's check. */
public final class Health {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The listener check of one probe: its status and data. */
    public record Check(String status, JsonObject data) {
        public boolean up() {
            return "UP".equals(status);
        }

        /** A numeric datum; Payara reports health data as strings, WildFly as numbers. */
        public long number(String key) {
            jakarta.json.JsonValue value = data.get(key);
            if (value == null) {
                throw new AssertionError("no " + key + " in health data " + data);
            }
            return Long.parseLong(value instanceof jakarta.json.JsonString s ? s.getString() : value.toString());
        }

        public String role() {
            return data.getString("role");
        }
    }

    /** How long {@link #awaitListenerReady} waits. */
    private static final Duration READY_PATIENCE = Duration.ofMinutes(1);

    private Health() {
    }

    /**
     * Where the server under test serves MicroProfile Health: Payara at the HTTP root of the deployment's
     * server, WildFly on its management port.
     */
    public static URI root(java.net.URL deployment) {
        return Deployments.server().equals("wildfly")
                ? URI.create("http://localhost:9990/")
                : URI.create(deployment.toString()).resolve("/");
    }

    /** @param server the server root, e.g. {@code http://localhost:8080/} */
    public static Check listener(URI server, String probe) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(server.resolve("/health/" + probe))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            JsonObject body = Json.createReader(new StringReader(response.body())).readObject();
            return body.getJsonArray("checks").stream().map(v -> v.asJsonObject())
                    .filter(c -> c.getString("name").equals("object-streams-listener"))
                    .map(c -> new Check(c.getString("status"), c.getJsonObject("data")))
                    .findFirst().orElseThrow(() -> new AssertionError("no object-streams-listener check in " + response.body()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits (at most a minute, asking every 250 ms) until the listener's readiness check at {@code server} is UP.
     * With {@code retryErrors}, a probe that fails (the server does not serve health yet, or its answer has no
     * listener check) is asked again; without, that failure ends the wait at once.
     *
     * @param server the server root, e.g. {@code http://localhost:8080/}
     */
    public static void awaitListenerReady(URI server, boolean retryErrors) throws InterruptedException {
        long deadline = System.nanoTime() + READY_PATIENCE.toNanos();
        while (true) {
            try {
                if (listener(server, "ready").up()) {
                    return;
                }
            } catch (RuntimeException | AssertionError notYet) {
                if (!retryErrors) {
                    throw notYet;
                }
                // not serving health yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the listener did not become ready");
            }
            Thread.sleep(250);
        }
    }
}
