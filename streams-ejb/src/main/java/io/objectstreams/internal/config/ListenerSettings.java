package io.objectstreams.internal.config;

import java.time.Duration;

/** The validated settings of the listener; see {@link StreamsConfig} for each key and its default. */
public record ListenerSettings(String url, String user, String password, String notifyChannel, String cursorChannel,
                               Duration pollInterval, Duration retryDelay, Duration maxRetryDelay, int maxRetries,
                               int batchSize, Duration deadSessionTimeout) {

    @Override
    public String toString() {
        // Never print the password.
        return "ListenerSettings[url=" + url + ", user=" + user + ", notifyChannel=" + notifyChannel
                + ", cursorChannel=" + cursorChannel + ", pollInterval=" + pollInterval + ", retryDelay=" + retryDelay
                + ", maxRetryDelay=" + maxRetryDelay + ", maxRetries=" + maxRetries + ", batchSize=" + batchSize
                + ", deadSessionTimeout=" + deadSessionTimeout + "]";
    }
}
