package io.objectstreams.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** HTTP calls to the deployed store as one of the demo users. */
public final class StoreClient {

    /** A response: status and parsed JSON body (or {@link JsonValue#NULL} when there is none). */
    public record Reply(int status, JsonValue body, String raw, java.net.http.HttpHeaders headers) {
        public JsonObject object() {
            if (!(body instanceof JsonObject object)) {
                throw new AssertionError("expected a JSON object, got " + status + " " + headers.map() + " "
                        + (raw.length() > 500 ? raw.substring(0, 500) + "..." : raw));
            }
            return object;
        }

        public long id() {
            return object().getJsonNumber("id").longValue();
        }

        /** A header's value, or {@code null}. */
        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI base;
    private final String authorization;
    private final String origin;

    /** A demo user's password is the name followed by {@code -pw}; a load customer's ({@code u1}, ...) is {@code load-pw}. */
    private StoreClient(URI base, String user) {
        this(base, user == null ? null : Auth.basic(user), null);
    }

    private StoreClient(URI base, String authorization, String origin) {
        this.base = base;
        this.authorization = authorization;
        this.origin = origin;
    }

    /** The same client, as if a page of {@code origin} sent its requests (the {@code Origin} header). */
    public StoreClient from(String origin) {
        return new StoreClient(base, authorization, origin);
    }

    /** @param deployment the deployment's base URL, as Arquillian injects it (ends with {@code /store/}) */
    public static StoreClient as(String user, URL deployment) {
        return new StoreClient(URI.create(deployment.toString()), user);
    }

    public static StoreClient anonymous(URL deployment) {
        return new StoreClient(URI.create(deployment.toString()), null);
    }

    public Reply get(String path) {
        return send("GET", path, null);
    }

    public Reply post(String path, String json) {
        return send("POST", path, json);
    }

    public Reply put(String path, String json) {
        return send("PUT", path, json);
    }

    public Reply patch(String path, String json) {
        return send("PATCH", path, json);
    }

    public Reply delete(String path) {
        return send("DELETE", path, null);
    }

    /** Creates an order and returns its id, failing the test if the store refuses. */
    public long createOrder(String json) {
        Reply reply = post("api/orders", json);
        if (reply.status() != 201) {
            throw new AssertionError("create failed: " + reply.status() + " " + reply.raw());
        }
        return reply.id();
    }

    public Reply send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Accept", "application/json");
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), parse(response.body()), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonValue parse(String body) {
        if (body == null || body.isBlank()) {
            return JsonValue.NULL;
        }
        try (var reader = Json.createReader(new StringReader(body))) {
            JsonStructure structure = reader.read();
            return structure;
        } catch (RuntimeException notJson) {
            return JsonValue.NULL;
        }
    }
}
