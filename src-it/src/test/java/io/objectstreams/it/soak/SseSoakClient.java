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
        String via = "new URL, cursor " + resume.cursor();
        if (lastFrameId != null) {
            headers = Map.of("Last-Event-ID", lastFrameId);
            from = Long.parseLong(lastFrameId);
            // The server takes the URL's members only for the URL's own cursor.
            members = from == resume.cursor() ? members : null;
            via = "Last-Event-ID " + lastFrameId + " on the URL of cursor " + resume.cursor();
        }
        String server = cluster.name(base);
        subscription.started(from, members, server);
        SseClient stream;
        try {
            stream = SseClient.open(base, user, resume.query(), headers);
        } catch (RuntimeException refused) {
            error("connect");
            subscription.note(SoakJournal.What.REFUSED, server, via + ": " + refused);
            Thread.sleep(500);
            return;
        }
        boolean opened = false;
        String why = "interrupted or failed";
        try (stream) {
            connectedTo = null;
            if (stream.status() != 200) {
                String code = codeOf(stream);
                error(stream.status() + ":" + code);
                subscription.note(SoakJournal.What.REFUSED, server, via + ": HTTP " + stream.status() + " " + code);
                Thread.sleep(1_000);
                return;
            }
            connectedTo = base;
            opened = true;
            subscription.note(SoakJournal.What.OPEN, server, via);
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lifetime());
            while (running && !resubscribe && (!churning || System.nanoTime() - until < 0)) {
                SseClient.Frame frame = stream.next(1);
                if (frame == null) {
                    if (stream.ended()) {
                        why = whyEnded(true);
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
            why = whyEnded(false);
        } finally {
            connectedTo = null;
            if (opened) {
                // The last id read is what a browser's EventSource sends as Last-Event-ID on its next connection.
                subscription.note(SoakJournal.What.ENDED, server, why + ", last id " + lastFrameId);
            }
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
