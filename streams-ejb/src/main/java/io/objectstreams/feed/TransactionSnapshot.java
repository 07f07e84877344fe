package io.objectstreams.feed;

import java.util.Arrays;

/**
 * Which PostgreSQL transactions had committed at one moment ({@code txid_current_snapshot()}): every transaction
 * below {@code xmin}, and those below {@code xmax} that were not still in progress.
 */
public record TransactionSnapshot(long xmin, long xmax, long[] inProgress) {

    public TransactionSnapshot {
        inProgress = inProgress.clone();
        Arrays.sort(inProgress);
    }

    /** Parses PostgreSQL's text form, {@code xmin:xmax:xip,xip,...}. */
    public static TransactionSnapshot parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("Not a transaction snapshot: " + text);
        }
        long[] inProgress = parts[2].isEmpty() ? new long[0]
                : Arrays.stream(parts[2].split(",")).mapToLong(Long::parseLong).toArray();
        return new TransactionSnapshot(Long.parseLong(parts[0]), Long.parseLong(parts[1]), inProgress);
    }

    /** Whether {@code transactionId} had committed (or ended) when the snapshot was taken. */
    public boolean sees(long transactionId) {
        return transactionId < xmin || transactionId < xmax && Arrays.binarySearch(inProgress, transactionId) < 0;
    }
}
