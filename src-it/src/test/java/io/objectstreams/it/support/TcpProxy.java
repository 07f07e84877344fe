package io.objectstreams.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy a test controls, standing between a server and PostgreSQL to fake network faults on one path
 * only: {@link Mode#REFUSE} closes every connection at once (the address is unreachable), {@link Mode#BLACKHOLE}
 * keeps connections open but lets no byte through in either direction (a partition, or a frozen host, that
 * neither side is told about), {@link Mode#OPEN} forwards.
 */
public final class TcpProxy implements AutoCloseable {

    public enum Mode { OPEN, REFUSE, BLACKHOLE }

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile Mode mode;
    private volatile boolean closed;

    private TcpProxy(String targetHost, int targetPort, Mode mode) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.mode = mode;
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static TcpProxy start(String targetHost, int targetPort, Mode mode) {
        try {
            return new TcpProxy(targetHost, targetPort, mode);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Switches the mode, for open connections as for new ones. */
    public void mode(Mode next) {
        mode = next;
        if (next == Mode.REFUSE) {
            sockets.forEach(TcpProxy::closeQuietly);
            sockets.clear();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (mode == Mode.REFUSE) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("tcp proxy: " + e);
                }
            }
        }
    }

    /** Copies {@code from} to {@code to}; in black-hole mode what arrives is read and dropped. */
    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (mode == Mode.OPEN) {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException endOfConnection) {
                // either side went away
            } finally {
                if (mode != Mode.BLACKHOLE) {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }
        }, "tcp-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        sockets.forEach(TcpProxy::closeQuietly);
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
