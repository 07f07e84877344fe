package io.objectstreams.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/** Free local ports for servers the tests start themselves. */
public final class Ports {

    private Ports() {
    }

    /** A port nothing listens on right now. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A base in {@code [from, to)} (a multiple of {@code step}) such that base + each offset is free: for
     * servers that derive all their ports from one base or offset.
     */
    public static int freeBase(int from, int to, int step, int... offsets) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(from / step, to / step) * step;
            if (IntStream.of(offsets).allMatch(offset -> isFree(base + offset))) {
                return base;
            }
        }
        throw new IllegalStateException("no free port base in [" + from + ", " + to + ")");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
