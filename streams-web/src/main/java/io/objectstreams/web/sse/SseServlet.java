package io.objectstreams.web.sse;

import io.objectstreams.Viewer;
import io.objectstreams.VisibilityPolicy;
import io.objectstreams.feed.StreamsFeed;
import io.objectstreams.feed.TransportSettings;
import io.objectstreams.protocol.ErrorCode;
import io.objectstreams.web.subscription.ProtocolError;
import io.objectstreams.web.subscription.RateLimitedLog;
import io.objectstreams.web.subscription.StreamSession;
import io.objectstreams.web.subscription.ConnectionRegistry;
import io.objectstreams.web.visibility.Visibility;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The Server-Sent Events transport at {@code GET <context root>/streams/subscribe/{model}}: one subscription per
 * connection, on the same engine as the WebSocket (the same viewer, visibility, filters, membership, replay,
 * limits and budgets). Every refusal is answered before the stream opens, as JSON with a named code. A resumed
 * stream ({@code Last-Event-ID}, or {@code cursor}) replays exactly what it missed, or is told to resync.
 *
 * <p>An asynchronous servlet with non-blocking output rather than a JAX-RS {@code SseEventSink}: the sinks of both
 * servers' JAX-RS implementations write on the caller's thread, where a client that stops reading would hold
 * one of the engine's sender threads; and the frame bytes are the same on every server.
 */
@WebServlet(urlPatterns = "/streams/subscribe/*", asyncSupported = true)
public class SseServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(SseServlet.class.getName());
    /** Failures of starting subscriptions: one stack trace a minute, the rest counted. */
    private static final RateLimitedLog FAILURES = new RateLimitedLog(Duration.ofMinutes(1));

    /** How soon an {@code EventSource} reconnects after the stream ends, in milliseconds. */
    static final int RETRY_MILLIS = 2_000;

    @Inject
    transient ConnectionRegistry engine;

    @Inject
    transient Visibility visibility;

    @Inject
    transient StreamsFeed feed;

    @Inject
    transient SseKeepAlive keepAlive;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        SseSubscriber subscriber = new SseSubscriber(engine);
        SseRequest parsed;
        StreamSession session;
        try {
            String model = model(request);
            TransportSettings settings = feed.settings();
            parsed = SseRequest.parse(model, request.getParameterMap(), request.getHeader("Last-Event-ID"),
                    settings.sseHeartbeat(), settings.sseLifetime());
            VisibilityPolicy<?> policy = visibility.policy(model).orElseThrow(() -> new ProtocolError(
                    ErrorCode.MODEL_NOT_FOUND, "There is no subscribable model " + ProtocolError.quoted(model)));
            Viewer viewer = viewer(request);
            if (viewer.isAnonymous() && !policy.admitsAnonymous()) {
                throw new ProtocolError(ErrorCode.AUTHENTICATION_REQUIRED,
                        model + " is not readable anonymously; authenticate");
            }
            session = engine.open(subscriber, viewer);
        } catch (ProtocolError refusal) {
            refuse(response, refusal);
            return;
        }
        // Undertow creates the request's input stream lazily, unsynchronized, when the exchange ends. Ended from
        // two threads at once (the writer's failure and the container's own completion), both create one; the
        // second finds the request channel taken and fails with a NullPointerException (UT005090 in the log, once
        // in about 10,000 streams the client closes at once: the soak's fuzz). Created here, there is only one.
        request.getInputStream();
        AsyncContext async;
        Waiting waiting = new Waiting(subscriber);
        try {
            async = request.startAsync();
            async.setTimeout(0);
            async.addListener(waiting);
        } catch (RuntimeException e) {
            // No stream to write to (a filter without async support, say): the session and its slot go now.
            engine.close(subscriber, "async_unsupported");
            throw e;
        }
        // The subscription starts (its members and replay are read from the database) on the engine's start threads,
        // as a WebSocket's does, never on this container thread: on Payara those also answer health.
        if (!engine.requestQueue(0).submit(() -> start(async, waiting, session, parsed), 0)) {
            engine.close(subscriber, "server_stopping");
            refuseAndComplete(async, response, new ProtocolError(ErrorCode.UNAVAILABLE, "The server is stopping;"
                    + " retry shortly"));
        }
    }

    /**
     * The request's listener, registered when it starts asynchronously (the servlet specification allows no later
     * registration, and Payara enforces it). While the subscription waits for a start thread, should the client leave
     * (or the container end the request), the session and its connection slot are released at once and the
     * subscription is not started; once the stream opens, every event goes to its subscriber.
     */
    private final class Waiting implements AsyncListener {
        final SseSubscriber subscriber;
        private boolean opening;
        private boolean gone;

        Waiting(SseSubscriber subscriber) {
            this.subscriber = subscriber;
        }

        /** Whether the stream may still open; from here on it is the subscriber's to release. */
        synchronized boolean open() {
            opening = !gone;
            return opening;
        }

        /** Whether the stream opened (its subscriber takes the event); otherwise releases the waiting session. */
        private boolean opened() {
            synchronized (this) {
                if (opening) {
                    return true;
                }
                if (gone) {
                    return false;
                }
                gone = true;
            }
            engine.close(subscriber, "left_before_start");
            return false;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            if (opened()) {
                subscriber.onComplete(event);
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            if (opened()) {
                subscriber.onTimeout(event);
            }
        }

        @Override
        public void onError(AsyncEvent event) {
            if (opened()) {
                subscriber.onError(event);
            }
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // not restarted
        }
    }

    /**
     * Starts the subscription, then opens the stream. A refusal is answered before the stream opens, as JSON with
     * its named code, and ends the request; so does a failure, as {@code unavailable}, logged. Whatever happens, the
     * session is released unless the stream opened.
     */
    private void start(AsyncContext async, Waiting waiting, StreamSession session, SseRequest parsed) {
        SseSubscriber subscriber = waiting.subscriber;
        boolean opened = false;
        try {
            if (!waiting.open()) {
                return; // the client left while the subscription waited: released already
            }
            HttpServletResponse response = (HttpServletResponse) async.getResponse();
            try {
                session.subscribe(parsed.request());
            } catch (ProtocolError refusal) {
                refuse(response, refusal); // the request ends below
                return;
            } catch (RuntimeException e) {
                FAILURES.log(LOG, "An SSE subscription to " + parsed.request().model() + " failed", e);
                refuse(response, new ProtocolError(ErrorCode.UNAVAILABLE, "The subscription could not be started ("
                        + e.getClass().getSimpleName() + "); it is logged"));
                return;
            }
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-cache");
            response.setHeader("X-Accel-Buffering", "no");
            subscriber.start(async, preamble(parsed, session), parsed.heartbeat(), parsed.lifetime(),
                    () -> keepAlive.forget(subscriber), session::broughtUpTo);
            opened = true;
            // Released already (the client left at once)? Then the clock finds it closed and drops it.
            keepAlive.watch(subscriber);
        } catch (IOException | RuntimeException gone) {
            // The client left, or the container ended the request, before the stream opened.
            LOG.log(Level.FINE, "An SSE stream ended before it opened", gone);
        } finally {
            if (!opened) {
                engine.close(subscriber, "not_started");
                complete(async);
            }
        }
    }

    private void refuseAndComplete(AsyncContext async, HttpServletResponse response, ProtocolError refusal) {
        try {
            refuse(response, refusal);
        } catch (IOException | RuntimeException gone) {
            LOG.log(Level.FINE, "An SSE refusal could not be written: the client left", gone);
        }
        complete(async);
    }

    private static void complete(AsyncContext async) {
        try {
            async.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // the container ended it first
        }
    }

    private void refuse(HttpServletResponse response, ProtocolError refusal) throws IOException {
        engine.refused(refusal);
        response.setStatus(refusal.httpStatus());
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(refusal.body());
    }

    private static String model(HttpServletRequest request) throws ProtocolError {
        String path = request.getPathInfo();
        String model = path == null ? "" : URLDecoder.decode(path.substring(1), StandardCharsets.UTF_8);
        if (model.isEmpty() || model.contains("/")) {
            throw new ProtocolError(ErrorCode.MODEL_NOT_FOUND, "Name one model: streams/subscribe/{model}");
        }
        return model;
    }

    /** The authenticated caller with the roles the policies consult, or anonymous. */
    private Viewer viewer(HttpServletRequest request) {
        Principal principal = request.getUserPrincipal();
        if (principal == null) {
            return Viewer.anonymous();
        }
        Set<String> roles = visibility.declaredRoles().stream().filter(request::isUserInRole)
                .collect(Collectors.toSet());
        return new Viewer(principal.getName(), roles);
    }

    private static String preamble(SseRequest parsed, StreamSession session) {
        var request = parsed.request();
        String scope = switch (request.kind()) {
            case OBJECT -> request.kind().wireName() + " " + request.model() + " " + request.pk();
            case FILTER -> request.kind().wireName() + " " + request.model() + " " + request.filter();
            default -> request.kind().wireName() + " " + request.model();
        };
        Instant closesAt = Instant.now().plus(parsed.lifetime()).truncatedTo(ChronoUnit.SECONDS);
        return "retry: " + RETRY_MILLIS + "\n: subscription " + scope.replace('\n', ' ') + ", closes at " + closesAt
                + " (lifetime " + SseRequest.text(parsed.lifetime()) + "), heartbeat every "
                + SseRequest.text(parsed.heartbeat()) + "\n\n";
    }

}
