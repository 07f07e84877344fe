package io.objectstreams.it.soak;

import io.objectstreams.it.support.SseClient;
import java.net.URL;
import java.util.concurrent.TimeUnit;

/** A soak client on Server-Sent Events: one subscription, one stream, resumed with {@code cursor} and {@code members}. */
final class SseSoakClient extends SoakClient {

    SseSoakClient(String name, String user, Cluster cluster) {
        super(name, user, cluster);
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
        SseClient stream;
        try {
            stream = SseClient.open(base, user, subscription.sseQuery(MAX_MEMBERS_SSE));
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
                if (frame.data() != null) {
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
