package io.objectstreams.examples.helpdesk;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The help desk's REST API as one user calls it (HTTP Basic; each user's password is its name and "-pw"). */
final class Api {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URI base;
    private final String authorization;

    Api(URL deployment, String user) {
        this.base = URI.create(deployment.toString());
        this.authorization = basic(user);
    }

    static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + user + "-pw").getBytes(StandardCharsets.UTF_8));
    }

    /** A response: its status, its {@code Streams-Cursor} (or -1), and its body. */
    record Response(int status, long cursor, String body) {

        JsonObject object() {
            return (JsonObject) json();
        }

        JsonArray array() {
            return (JsonArray) json();
        }

        private JsonStructure json() {
            if (status / 100 != 2) {
                throw new AssertionError("HTTP " + status + ": " + body);
            }
            return Json.createReader(new StringReader(body)).read();
        }
    }

    Response get(String path) {
        return send("GET", path, null);
    }

    JsonObject post(String path, String json) {
        return send("POST", path, json).object();
    }

    JsonObject put(String path, String json) {
        return send("PUT", path, json).object();
    }

    /** Deletes, failing the test unless the answer is a success; returns its status. */
    int delete(String path) {
        Response response = send("DELETE", path, null);
        if (response.status() / 100 != 2) {
            throw new AssertionError("DELETE " + path + ": HTTP " + response.status() + ": " + response.body());
        }
        return response.status();
    }

    /** Creates a ticket in {@code team} ({@code null}: none) and returns its id. */
    String createTicket(String title, String team) {
        return post("api/tickets", "{\"title\":\"" + title + "\",\"requesterEmail\":\"ann@example.com\""
                + (team == null ? "" : ",\"team\":\"" + team + "\"") + "}").getString("id");
    }

    Response send(String method, String path, String json) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).header("Authorization", authorization)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long cursor = response.headers().firstValue("Streams-Cursor").map(Long::parseLong).orElse(-1L);
            return new Response(response.statusCode(), cursor, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
