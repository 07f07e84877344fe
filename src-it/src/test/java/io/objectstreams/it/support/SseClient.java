package io.objectstreams.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw Server-Sent Events client of {@code <store>/streams/subscribe/{model}}: it keeps each frame's exact text
 * (everything up to and including its blank line), so tests can assert the bytes as well as the messages.
 */
public final class SseClient implements AutoCloseable {

    /** One frame: its exact text; for a data frame its id, event and the JSON of its data line. */
    public record Frame(String raw, String id, String event, JsonObject data) {
        public boolean isComment() {
            return data == null && event == null;
        }
    }

    private static final Frame END = new Frame("", null, null, null);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final HttpResponse<InputStream> response;
    private final String errorBody;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private volatile boolean ended;
    private boolean paused;

    private SseClient(HttpResponse<InputStream> response) throws IOException {
        this.response = response;
        if (response.statusCode() != 200) {
            try (InputStream error = response.body()) {
                errorBody = new String(error.readAllBytes(), StandardCharsets.UTF_8);
            }
            ended = true;
            return;
        }
        errorBody = null;
        Thread reader = new Thread(this::read, "sse-client");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Opens {@code streams/subscribe/{query}} (for instance {@code store.CustomerOrder?pk=5}) as {@code user}
     * (a demo user, {@code user:password}, or {@code null} for anonymous), with extra request headers.
     */
    public static SseClient open(URL deployment, String user, String query, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(deployment.toString()).resolve("streams/subscribe/" + query))
                .header("Accept", "text/event-stream").GET();
        if (user != null) {
            request.header("Authorization", Auth.basicLogin(user));
        }
        headers.forEach(request::header);
        try {
            return new SseClient(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static SseClient open(URL deployment, String user, String query) {
        return open(deployment, user, query, Map.of());
    }

    public int status() {
        return response.statusCode();
    }

    public String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** A refusal's JSON body. */
    public JsonObject error() {
        return Json.createReader(new StringReader(errorBody)).readObject();
    }

    /** The next frame, comments included; {@code null} when the stream ended or nothing came within the timeout. */
    public Frame nextFrame(long seconds) throws InterruptedException {
        Frame frame = frames.poll(seconds, TimeUnit.SECONDS);
        return frame == null || frame == END ? null : frame;
    }

    /** The next data frame, skipping comments (pings); {@code null} when none came or the stream ended. */
    public Frame next(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long left = deadline - System.nanoTime();
            Frame frame = frames.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (frame == null || frame == END) {
                if (frame == END) {
                    frames.add(END);
                }
                return null;
            }
            if (!frame.isComment()) {
                return frame;
            }
        }
    }

    /** Data frames that arrive within {@code millis}. */
    public List<Frame> drain(long millis) throws InterruptedException {
        List<Frame> data = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            Frame frame = frames.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            if (frame == END) {
                frames.add(END);
                break;
            }
            if (frame != null && !frame.isComment()) {
                data.add(frame);
            }
        }
        return data;
    }

    /** Stops reading: the client's buffers, then the server's, fill up as a stalled browser tab's would. */
    public synchronized void pause() {
        paused = true;
    }

    public synchronized void resume() {
        paused = false;
        notifyAll();
    }

    private synchronized void awaitResumed() throws InterruptedException {
        while (paused) {
            wait();
        }
    }

    /** Whether the server ended the stream. */
    public boolean ended() {
        return ended;
    }

    private void read() {
        try (InputStream in = new java.io.BufferedInputStream(response.body(), 65_536)) {
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            int previous = -1;
            int b = -1;
            while (true) {
                if (previous == -1 || b == '\n') {
                    awaitResumed();
                }
                b = in.read();
                if (b < 0) {
                    break;
                }
                frame.write(b);
                if (b == '\n' && previous == '\n') {
                    frames.add(parse(frame.toString(StandardCharsets.UTF_8)));
                    frame.reset();
                    b = -1;
                }
                previous = b;
            }
        } catch (IOException closed) {
            // the stream ended or was dropped
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended = true;
            frames.add(END);
        }
    }

    private static Frame parse(String raw) {
        String id = null;
        String event = null;
        JsonObject data = null;
        for (String line : raw.split("\n")) {
            if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("data: ")) {
                data = Json.createReader(new StringReader(line.substring(6))).readObject();
            }
        }
        return new Frame(raw, id, event, data);
    }

    /** Drops the connection, as a client that goes away does (closing an unfinished body closes the connection). */
    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // dropped either way
        }
    }
}
