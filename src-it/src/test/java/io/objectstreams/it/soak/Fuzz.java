package io.objectstreams.it.soak;

import io.objectstreams.it.support.SseClient;
import io.objectstreams.it.support.StreamClient;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generated client input (G12): valid and broken JSON, unknown ops, wrong types, huge numbers, deep nesting,
 * oversized frames, random filter keys and parameters. Every message must get a correct answer or an error with a
 * named code, and the connection must stay open.
 */
final class Fuzz {

    /** Every code the protocol names (docs/protocol.md); an answer with another code is a violation. */
    static final Set<String> CODES = Set.of("authentication_required", "connection_limit_exceeded", "duplicate_subscription",
            "invalid_cursor", "invalid_filter", "invalid_heartbeat", "invalid_kind", "invalid_lifetime", "invalid_members",
            "invalid_request", "member_limit_exceeded", "model_not_found", "not_found", "not_subscribed",
            "subscription_limit_exceeded", "subscription_too_large", "unavailable", "unknown_parameter", "unsupported_search");

    private static final String MODEL = SoakSubscription.MODEL;
    private static final String[] KEYS = {"op", "kind", "model", "pk", "filter", "filters", "cursor", "members",
            "subscription_id", "search", "ordering", "shape", "x", "", "OP", "op ", "\u0000", "é"};
    private static final String[] FILTER_KEYS = {"status", "owner", "total", "total__gte", "total__lt", "status__in",
            "owner__in", "note__isnull", "total__isnull", "status__regex", "id", "lines", "status__", "__in", "note",
            "total__gte__in", "\u2603", "owner__exact"};

    final Map<String, AtomicInteger> answers = new TreeMap<>();
    final List<String> violations = new ArrayList<>();
    private final Random random;
    private final List<String> pks;

    Fuzz(long seed, List<String> pks) {
        this.random = new Random(seed);
        this.pks = pks;
    }

    private synchronized void answer(String what) {
        answers.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
    }

    private synchronized void violation(String text) {
        if (violations.size() < 50) {
            violations.add(text);
        }
    }

    // ---- WebSocket ----

    /** Sends {@code count} generated messages over WebSocket connections of the demo users, one answer awaited each. */
    void webSocket(URL base, int count) throws Exception {
        String[] users = {"alice", "bob", "carol"};
        int sent = 0;
        int connection = 0;
        while (sent < count) {
            String user = users[connection++ % users.length];
            try (StreamClient socket = StreamClient.open(StreamClient.endpoint(base), StreamClient.options()
                    .http(Http.CLIENT).connectTimeout(Duration.ofSeconds(5)).handshakeWait(Duration.ofSeconds(10))
                    .login(user))) {
                for (int i = 0; i < 500 && sent < count; i++, sent++) {
                    String message = message();
                    JsonObject reply = ask(socket, message);
                    if (reply == null) {
                        violation("ws: no answer within 15 s (closed: " + socket.closeCode() + ") to " + head(message));
                        break;
                    }
                    String type = reply.getString("type", "");
                    switch (type) {
                        case "subscribed" -> {
                            answer("ws subscribed");
                            JsonObject unsubscribed = ask(socket, "{\"op\":\"unsubscribe\",\"subscription_id\":"
                                    + Json.createValue(reply.getString("subscription_id")) + "}");
                            if (unsubscribed == null || !unsubscribed.getString("type", "").equals("unsubscribed")) {
                                violation("ws: unsubscribe after " + head(message) + " answered " + unsubscribed);
                            }
                        }
                        case "unsubscribed" -> answer("ws unsubscribed");
                        case "error" -> {
                            String code = reply.getString("code", "");
                            answer("ws error " + code);
                            if (!CODES.contains(code) || reply.getString("message", "").isBlank()) {
                                violation("ws: unnamed error " + reply + " for " + head(message));
                            }
                        }
                        default -> violation("ws: answer " + reply + " to " + head(message));
                    }
                }
                if (socket.closeCode() != null) {
                    violation("ws: the server closed the connection (" + socket.closeCode() + ")");
                }
            }
        }
    }

    private static String head(String message) {
        String text = message.length() > 120 ? message.substring(0, 120) + "… (" + message.length() + " chars)" : message;
        return text.replaceAll("[\\p{Cntrl}]", "?");
    }

    private String message() {
        return switch (random.nextInt(12)) {
            case 0, 1 -> valid();
            case 2 -> truncated(valid());
            case 3 -> "{\"op\":" + string(randomWord()) + ",\"model\":\"" + MODEL + "\"}";
            case 4 -> withField(valid(), KEYS[random.nextInt(KEYS.length)], wrongValue());
            case 5 -> withField(valid(), random.nextBoolean() ? "cursor" : "pk", hugeNumber());
            case 6 -> deep(random.nextInt(10, 5_000));
            case 7 -> random.nextInt(20) == 0 ? oversized() : filterMessage();
            case 8 -> garbage();
            case 9 -> List.of("1", "\"subscribe\"", "[]", "null", "true", "[{\"op\":\"subscribe\"}]", "{}", "1e400")
                    .get(random.nextInt(8));
            case 10 -> "{\"op\":\"unsubscribe\"" + (random.nextBoolean() ? ",\"subscription_id\":" + wrongValue() : "") + "}";
            default -> "{\"op\":\"subscribe\",\"op\":" + string(randomWord()) + ",\"model\":\"" + MODEL + "\",\"kind\":\"model\"}";
        };
    }

    private String valid() {
        return switch (random.nextInt(3)) {
            case 0 -> "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":" + string(pks.get(random.nextInt(pks.size()))) + "}";
            case 1 -> "{\"op\":\"subscribe\",\"kind\":\"model\",\"model\":\"" + MODEL + "\"}";
            default -> "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL
                    + "\",\"filter\":{\"status__in\":[\"open\",\"paid\"],\"total__gte\":" + random.nextInt(1000) + "}}";
        };
    }

    private String filterMessage() {
        StringBuilder filter = new StringBuilder("{");
        int keys = random.nextInt(6);
        for (int i = 0; i < keys; i++) {
            if (i > 0) {
                filter.append(',');
            }
            String key = random.nextInt(4) == 0 ? randomWord() : FILTER_KEYS[random.nextInt(FILTER_KEYS.length)];
            filter.append(string(key)).append(':').append(random.nextBoolean() ? filterValue() : wrongValue());
        }
        return "{\"op\":\"subscribe\",\"kind\":\"filter\",\"model\":\"" + MODEL + "\",\"filter\":" + filter.append('}') + "}";
    }

    private String filterValue() {
        return switch (random.nextInt(6)) {
            case 0 -> string(List.of("open", "paid", "draft", "alice", "x").get(random.nextInt(5)));
            case 1 -> Integer.toString(random.nextInt(-5, 5000));
            case 2 -> "[" + "\"open\",".repeat(random.nextInt(0, 1_500)) + "\"paid\"]";
            case 3 -> hugeNumber();
            case 4 -> random.nextBoolean() ? "true" : "false";
            default -> string("2026-12-01T00:00:00Z");
        };
    }

    private String wrongValue() {
        return switch (random.nextInt(9)) {
            case 0 -> "null";
            case 1 -> "{\"a\":[1,2,{}]}";
            case 2 -> "[" + random.nextInt() + "]";
            case 3 -> Double.toString(random.nextDouble() * 1e6);
            case 4 -> hugeNumber();
            case 5 -> string(randomWord());
            case 6 -> "true";
            case 7 -> string("x".repeat(random.nextInt(1, 3_000)));
            default -> "-" + random.nextInt(1, Integer.MAX_VALUE);
        };
    }

    private String hugeNumber() {
        return List.of("1e308", "-1e308", "1e999999999", "99999999999999999999999999", "-9223372036854775809",
                "9223372036854775807", "0.000000000000000000001", "-0", "1.5", "123456789012345678901234567890.5")
                .get(random.nextInt(10));
    }

    private String truncated(String json) {
        int cut = random.nextInt(1, json.length());
        return random.nextBoolean() ? json.substring(0, cut) : json.substring(0, cut) + "\"}{" + json.substring(cut);
    }

    private String withField(String json, String key, String value) {
        return json.substring(0, json.length() - 1) + "," + string(key) + ":" + value + "}";
    }

    private String deep(int depth) {
        return random.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth)
                : "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"filter\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth + 1);
    }

    private String oversized() {
        return "{\"op\":\"subscribe\",\"model\":\"" + MODEL + "\",\"pk\":\"" + "9".repeat(random.nextInt(66_000, 200_000)) + "\"}";
    }

    private String garbage() {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(1, 300);
        for (int i = 0; i < length; i++) {
            int c = random.nextInt(4) == 0 ? random.nextInt(0x20, 0x7f) : random.nextInt(1, 0xd7ff);
            text.append((char) c);
        }
        return text.toString();
    }

    private String randomWord() {
        StringBuilder word = new StringBuilder();
        int length = random.nextInt(0, 40);
        for (int i = 0; i < length; i++) {
            word.append((char) random.nextInt(0x20, 0x250));
        }
        return word.toString();
    }

    private static String string(String text) {
        return Json.createValue(text).toString();
    }

    /** Sends {@code message} and returns the next reply to a request, skipping events; null if none in 15 s. */
    private static JsonObject ask(StreamClient socket, String message) throws Exception {
        socket.sendAsync(message).get(15, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            JsonObject reply = socket.poll(Duration.ofMillis(100));
            if (reply != null && List.of("subscribed", "unsubscribed", "error").contains(reply.getString("type", ""))) {
                return reply;
            }
            if (reply == null && socket.closeCode() != null) {
                return null;
            }
        }
        return null;
    }

    // ---- Server-Sent Events ----

    /** Opens {@code count} generated SSE requests on 4 threads; a stream that opens is read to its first frame and closed. */
    void serverSentEvents(URL base, int count) throws Exception {
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            queries.add(query());
        }
        String[] users = {"alice", "bob", "carol"};
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = thread; i < queries.size(); i += 4) {
                        sse(base, users[i % users.length], queries.get(i));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void sse(URL base, String user, String query) throws InterruptedException {
        try (SseClient stream = SseClient.open(base, user, query)) {
            if (stream.status() == 200) {
                long opened = System.nanoTime();
                SseClient.Frame first = stream.next(15);
                if (first == null || first.data() == null || !first.data().getString("type", "").equals("subscribed")) {
                    String came = first != null ? "first came " + head(first.raw())
                            : stream.ended() ? "the stream ended first" : "nothing came";
                    violation("sse: stream opened without a subscribed frame (" + came + ", after "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened) + " ms): " + head(query));
                }
                answer("sse 200 subscribed");
                return;
            }
            JsonObject error;
            try {
                error = stream.error();
            } catch (RuntimeException notJson) {
                violation("sse: " + stream.status() + " without a JSON error for " + head(query));
                return;
            }
            String code = error.getString("code", "");
            answer("sse " + stream.status() + " " + code);
            if (!CODES.contains(code) || error.getString("message", "").isBlank()) {
                violation("sse: unnamed error " + error + " for " + head(query));
            }
        } catch (RuntimeException e) {
            violation("sse: request failed (" + e + ") for " + head(query));
        }
    }

    private String query() {
        StringBuilder path = new StringBuilder(random.nextInt(25) == 0 ? "store.Unknown" + random.nextInt(1000) : MODEL);
        List<String> parameters = new ArrayList<>();
        int kind = random.nextInt(5);
        switch (kind) {
            case 0 -> parameters.add("pk=" + encode(pks.get(random.nextInt(pks.size()))));
            case 1 -> parameters.add("kind=model");
            case 2 -> {
                parameters.add("kind=filter");
                for (int i = random.nextInt(4); i > 0; i--) {
                    String key = random.nextInt(4) == 0 ? randomWord() : FILTER_KEYS[random.nextInt(FILTER_KEYS.length)];
                    parameters.add("filter." + encode(key) + "=" + encode(sseValue()));
                }
            }
            case 3 -> parameters.add("kind=" + encode(random.nextBoolean() ? randomWord() : "object"));
            default -> {
            }
        }
        for (int i = random.nextInt(4); i > 0; i--) {
            parameters.add(switch (random.nextInt(8)) {
                case 0 -> "cursor=" + encode(random.nextBoolean() ? hugeNumber() : Integer.toString(random.nextInt(-10, 1000)));
                case 1 -> "members=" + encode(random.nextBoolean() ? "1,2,,3" : String.join(",", pks));
                case 2 -> "heartbeat=" + encode(List.of("1s", "0s", "10m", "abc", "500ms", "-1s", "99999999999999s").get(random.nextInt(7)));
                case 3 -> "lifetime=" + encode(List.of("1s", "5h", "0", "x", "30m").get(random.nextInt(5)));
                case 4 -> encode(randomWord()) + "=" + encode(randomWord());
                case 5 -> "pk=" + encode(random.nextBoolean() ? hugeNumber() : randomWord());
                case 6 -> "kind=model&kind=model";
                default -> "members=" + encode("x".repeat(random.nextInt(1, 600)));
            });
        }
        if (random.nextInt(3) > 0) {
            parameters.add("heartbeat=1s");
        }
        return path.append(parameters.isEmpty() ? "" : "?" + String.join("&", parameters)).toString();
    }

    private String sseValue() {
        return switch (random.nextInt(5)) {
            case 0 -> List.of("open", "paid", "alice", "open,paid", "").get(random.nextInt(5));
            case 1 -> Integer.toString(random.nextInt(-5, 5000));
            case 2 -> hugeNumber();
            case 3 -> randomWord();
            default -> "true";
        };
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
