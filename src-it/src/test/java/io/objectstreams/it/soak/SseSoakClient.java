package io.objectstreams.it.soak;

import io.objectstreams.it.support.SseClient;
import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A soak client on Server-Sent Events: one subscription, one stream. It resumes either as the soak's other clients
 * do, with a new URL naming its last cursor and members, or as a browser's {@code EventSource} does: the same URL
 * again, with {@code Last-Event-ID} set to the last frame's {@code id:} (a new URL only after a refetch).
 */
final class SseSoakClient extends SoakClient {

    private final boolean lastEventId;
    private SoakSubscription.SseResume resume;
    private String lastFrameId;

    SseSoakClient(String name, String user, Cluster cluster, boolean lastEventId) {
        super(name, user, cluster);
        this.lastEventId = lastEventId;
    }

    @Override
    String transport() {
        return "sse";
    }

    @Override
    int maxMembers() {
        return MAX_MEMBERS_SSE;
    }

    @Override
    void connectOnce(URL base) throws InterruptedException {
        SoakSubscription subscription = subscriptions.get(0);
        if (!subscription.started()) {
            refetch(base, subscription);
        }
        if (!lastEventId || resume == null || subscription.refetched) {
            resume = subscription.sseQuery(MAX_MEMBERS_SSE);
            lastFrameId = null;
        }
        Map<String, String> headers = Map.of();
        long from = resume.cursor();
        Set<String> members = resume.members();
        if (lastFrameId != null) {
            headers = Map.of("Last-Event-ID", lastFrameId);
            from = Long.parseLong(lastFrameId);
            // The server takes the URL's members only for the URL's own cursor.
            members = from == resume.cursor() ? members : null;
        }
        subscription.started(from, members, cluster.name(base));
        SseClient stream;
        try {
            stream = SseClient.open(base, user, resume.query(), headers);
        } catch (RuntimeException refused) {
            error("connect");
            Thread.sleep(500);
            return;
        }
        try (stream) {
            connectedTo = null;
            if (stream.status() != 200) {
                error(stream.status() + ":" + codeOf(stream));
                Thread.sleep(1_000);
                return;
            }
            connectedTo = base;
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lifetime());
            while (running && !resubscribe && (!churning || System.nanoTime() - until < 0)) {
                SseClient.Frame frame = stream.next(1);
                if (frame == null) {
                    if (stream.ended()) {
                        return;
                    }
                    continue;
                }
                if (frame.id() != null) {
                    lastFrameId = frame.id();
                }
                if ("subscribed".equals(frame.event())) {
                    subscription.subscribed(frame.data(), frame.id());
                } else if (frame.data() != null) {
                    handle(base, frame.data());
                }
            }
        } finally {
            connectedTo = null;
        }
    }

    private static String codeOf(SseClient stream) {
        try {
            return stream.error().getString("code", "?");
        } catch (RuntimeException notJson) {
            return "?";
        }
    }
}
