package io.objectstreams.it.soak;

import io.objectstreams.it.support.Auth;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The soak's REST calls: one shared client, short timeouts (a server may be down), failures as values. */
final class Http {

    /** A reply, or {@code status} -1 when the request got none (refused, reset, timed out). */
    record Reply(int status, JsonValue body, Long cursor) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {
    }

    static Reply send(URL base, String user, String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.toString()).resolve(path))
                .timeout(Duration.ofSeconds(15))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Accept", "application/json")
                .header("Authorization", Auth.basic(user));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonValue body = JsonValue.NULL;
            if (response.body() != null && !response.body().isBlank()) {
                try (var reader = Json.createReader(new StringReader(response.body()))) {
                    body = reader.readValue();
                } catch (RuntimeException notJson) {
                    body = JsonValue.NULL;
                }
            }
            Long cursor = response.headers().firstValue("Streams-Cursor").map(Long::valueOf).orElse(null);
            return new Reply(response.statusCode(), body, cursor);
        } catch (IOException e) {
            return new Reply(-1, JsonValue.NULL, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(-1, JsonValue.NULL, null);
        }
    }
}
