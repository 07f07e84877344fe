package io.objectstreams.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A deliberately small WebSocket client for load: plain NIO, a few selector threads for thousands of
 * connections, text frames handed over as bytes without decoding. The JDK's client costs about as much CPU per
 * message as the server under test does, which on a shared two-core machine measured the client rather than the
 * server. Enough of RFC 6455 for this use: the handshake, unmasked server frames (fragmented or not), masked
 * client text frames, close and ping.
 */
final class RawWebSockets implements AutoCloseable {

    /** Receives each complete text message: {@code length} bytes from {@code offset}, valid only during the call. */
    interface Listener {
        void onText(byte[] buffer, int offset, int length, long arrivalNanos);

        /** The server ended the connection (or it failed). */
        default void onClosed() {
        }
    }

    /**
     * How many loopback source addresses the connections are spread over ({@code bench.source-addresses}, 8): from one
     * address a client can open at most one connection per ephemeral port (about 28,000 here, fewer with the sockets a
     * storm leaves in TIME_WAIT). Only for a server on a loopback address; any other is connected to from the default.
     */
    private static final int SOURCES = Integer.getInteger("bench.source-addresses", 8);

    private final Loop[] loops;
    private int next;
    private int nextSource;

    RawWebSockets(int threads) {
        loops = new Loop[threads];
        for (int i = 0; i < threads; i++) {
            loops[i] = new Loop();
            Thread thread = new Thread(loops[i], "raw-websocket-" + i);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Connects (blocking handshake), sends {@code firstMessage}, then reads on a selector thread. */
    Connection connect(URI endpoint, String authorization, String firstMessage, Listener listener) {
        try {
            String key = Base64.getEncoder().encodeToString(ThreadLocalRandom.current().ints(16, 0, 256)
                    .collect(java.io.ByteArrayOutputStream::new, (o, b) -> o.write(b), (a, b) -> { }).toByteArray());
            SocketChannel channel = open(endpoint);
            ByteBuffer in = ByteBuffer.allocate(1 << 16);
            exchangeHead(channel, "GET " + endpoint.getRawPath() + " HTTP/1.1\r\nHost: " + endpoint.getHost() + ":"
                    + endpoint.getPort() + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                    + "\r\nSec-WebSocket-Version: 13\r\nAuthorization: " + authorization + "\r\n\r\n", "101", in);
            Connection connection = new Connection(channel, in, listener);
            connection.sendText(firstMessage);
            channel.configureBlocking(false);
            Loop loop = loops[next++ % loops.length];
            loop.pending.add(connection);
            loop.selector.wakeup();
            return connection;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens a Server-Sent Events stream ({@code GET}, blocking until the response head), then reads it on a
     * selector thread: each frame's {@code data:} line is handed over like a WebSocket text message.
     */
    Connection connectSse(URI stream, String authorization, Listener listener) {
        try {
            SocketChannel channel = open(stream);
            ByteBuffer in = ByteBuffer.allocate(1 << 16);
            String head = exchangeHead(channel, "GET " + stream.getRawPath()
                    + (stream.getRawQuery() == null ? "" : "?" + stream.getRawQuery()) + " HTTP/1.1\r\nHost: "
                    + stream.getHost() + ":" + stream.getPort() + "\r\nAccept: text/event-stream\r\nAuthorization: "
                    + authorization + "\r\n\r\n", "200", in);
            SseConnection connection = new SseConnection(channel, in, listener,
                    head.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked"));
            // The first frames may have come with the response head: hand them over now, not at the next read.
            connection.process(System.nanoTime());
            channel.configureBlocking(false);
            Loop loop = loops[next++ % loops.length];
            loop.pending.add(connection);
            loop.selector.wakeup();
            return connection;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A channel connected to {@code server}, from the next loopback source address when the server is on loopback. */
    private SocketChannel open(URI server) throws IOException {
        InetSocketAddress address = new InetSocketAddress(server.getHost(), server.getPort());
        SocketChannel channel = SocketChannel.open();
        if (address.getAddress().isLoopbackAddress() && SOURCES > 1) {
            int source;
            synchronized (this) {
                source = nextSource++ % SOURCES;
            }
            channel.bind(new InetSocketAddress("127.0.1." + (1 + source), 0));
        }
        channel.connect(address);
        return channel;
    }

    @Override
    public void close() {
        for (Loop loop : loops) {
            loop.running = false;
            loop.selector.wakeup();
        }
    }

    /**
     * Sends {@code request} (blocking) and reads the response head, which must have {@code status}; leaves in
     * {@code in} whatever came after the head, ready to be appended to.
     */
    private static String exchangeHead(SocketChannel channel, String request, String status, ByteBuffer in)
            throws IOException {
        channel.socket().setTcpNoDelay(true);
        writeFully(channel, ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
        int headerEnd;
        while ((headerEnd = headerEnd(in)) < 0) {
            if (channel.read(in) < 0) {
                throw new IOException("connection closed before the response head");
            }
        }
        String head = new String(in.array(), 0, headerEnd, StandardCharsets.US_ASCII);
        if (!head.startsWith("HTTP/1.1 " + status)) {
            throw new IOException("refused: " + head.lines().findFirst().orElse(head));
        }
        in.flip();
        in.position(headerEnd);
        in.compact();
        return head;
    }

    private static int headerEnd(ByteBuffer in) {
        byte[] b = in.array();
        for (int i = 3; i < in.position(); i++) {
            if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    private static void writeFully(SocketChannel channel, ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            channel.write(data);
        }
    }

    /** One connection: its read buffer and the message being assembled from fragments. */
    static class Connection {
        final SocketChannel channel;
        ByteBuffer in;
        final Listener listener;
        private byte[] message = new byte[0];
        private int messageLength;

        Connection(SocketChannel channel, ByteBuffer in, Listener listener) {
            this.channel = channel;
            this.in = in;
            this.listener = listener;
        }

        /** Sends one masked text frame; blocking, for the rare client message. */
        synchronized void sendText(String text) throws IOException {
            byte[] payload = text.getBytes(StandardCharsets.UTF_8);
            ByteBuffer frame = ByteBuffer.allocate(payload.length + 14);
            frame.put((byte) 0x81);
            if (payload.length < 126) {
                frame.put((byte) (0x80 | payload.length));
            } else if (payload.length < 65536) {
                frame.put((byte) (0x80 | 126)).putShort((short) payload.length);
            } else {
                frame.put((byte) (0x80 | 127)).putLong(payload.length);
            }
            byte[] mask = new byte[4];
            ThreadLocalRandom.current().nextBytes(mask);
            frame.put(mask);
            for (int i = 0; i < payload.length; i++) {
                frame.put((byte) (payload[i] ^ mask[i & 3]));
            }
            frame.flip();
            boolean blocking = channel.isBlocking();
            while (frame.hasRemaining()) {
                if (channel.write(frame) == 0 && !blocking) {
                    Thread.onSpinWait();
                }
            }
        }

        /** Sends a close frame and closes the socket. */
        void close() {
            try {
                sendFrame(0x88, new byte[] {0x03, (byte) 0xe8});
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                channel.close();
            } catch (IOException ignored) {
                // closed
            }
        }

        private synchronized void sendFrame(int first, byte[] payload) throws IOException {
            ByteBuffer frame = ByteBuffer.allocate(payload.length + 6);
            frame.put((byte) first).put((byte) (0x80 | payload.length)).put(new byte[4]).put(payload).flip();
            while (frame.hasRemaining()) {
                channel.write(frame);
            }
        }

        /** Reads what is available and hands over every complete message; false once the peer closed. */
        boolean read() throws IOException {
            int read = channel.read(in);
            long arrival = System.nanoTime();
            if (read < 0) {
                return false;
            }
            in.flip();
            while (true) {
                int start = in.position();
                if (in.remaining() < 2) {
                    break;
                }
                int b0 = in.get(start) & 0xff;
                int b1 = in.get(start + 1) & 0x7f;
                int header = 2;
                long length = b1;
                if (b1 == 126) {
                    if (in.remaining() < 4) {
                        break;
                    }
                    length = in.getShort(start + 2) & 0xffff;
                    header = 4;
                } else if (b1 == 127) {
                    if (in.remaining() < 10) {
                        break;
                    }
                    length = in.getLong(start + 2);
                    header = 10;
                }
                if (header + length > in.capacity()) {
                    ByteBuffer larger = ByteBuffer.allocate((int) (header + length) * 2);
                    larger.put(in);
                    in = larger;
                    in.flip();
                    continue;
                }
                if (in.remaining() < header + length) {
                    break;
                }
                int opcode = b0 & 0x0f;
                boolean fin = (b0 & 0x80) != 0;
                int payloadStart = start + header;
                if (opcode == 0x1 || opcode == 0x0) {
                    if (fin && opcode == 0x1) {
                        listener.onText(in.array(), payloadStart, (int) length, arrival);
                    } else {
                        append(in.array(), payloadStart, (int) length);
                        if (fin) {
                            listener.onText(message, 0, messageLength, arrival);
                            messageLength = 0;
                        }
                    }
                } else if (opcode == 0x9) {
                    byte[] payload = java.util.Arrays.copyOfRange(in.array(), payloadStart, payloadStart + (int) length);
                    sendFrame(0x8a, payload);
                } else if (opcode == 0x8) {
                    return false;
                }
                in.position(payloadStart + (int) length);
            }
            in.compact();
            return true;
        }

        private void append(byte[] bytes, int offset, int length) {
            if (messageLength + length > message.length) {
                message = java.util.Arrays.copyOf(message, Math.max(1024, (messageLength + length) * 2));
            }
            System.arraycopy(bytes, offset, message, messageLength, length);
            messageLength += length;
        }
    }

    /**
     * A Server-Sent Events stream: the body, de-chunked when the server chunks it, split into frames at blank
     * lines; each frame's {@code data:} line goes to the listener. Closing drops the socket, as a leaving client.
     */
    static final class SseConnection extends Connection {
        private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
        private final boolean chunked;
        /** Bytes of the current chunk still to come; -1 while a chunk-size line is expected. */
        private long chunkLeft = -1;
        private byte[] body = new byte[1 << 16];
        private int bodyLength;

        SseConnection(SocketChannel channel, ByteBuffer in, Listener listener, boolean chunked) {
            super(channel, in, listener);
            this.chunked = chunked;
        }

        @Override
        void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closed
            }
        }

        @Override
        boolean read() throws IOException {
            int read = channel.read(in);
            long arrival = System.nanoTime();
            if (read < 0) {
                return false;
            }
            return process(arrival);
        }

        /** Parses what the read buffer holds; false once the last chunk came. */
        boolean process(long arrival) {
            in.flip();
            if (!chunked) {
                appendBody(in.array(), in.position(), in.remaining());
                in.position(in.limit());
            } else {
                while (in.hasRemaining()) {
                    if (chunkLeft < 0) {
                        int lineEnd = -1;
                        for (int i = in.position(); i + 1 < in.limit(); i++) {
                            if (in.get(i) == '\r' && in.get(i + 1) == '\n') {
                                lineEnd = i;
                                break;
                            }
                        }
                        if (lineEnd < 0) {
                            break;
                        }
                        String size = new String(in.array(), in.position(), lineEnd - in.position(), StandardCharsets.US_ASCII).trim();
                        in.position(lineEnd + 2);
                        if (size.isEmpty()) {
                            continue; // the CRLF that ends a chunk's data
                        }
                        int extension = size.indexOf(';');
                        chunkLeft = Long.parseLong(extension < 0 ? size : size.substring(0, extension), 16);
                        if (chunkLeft == 0) {
                            in.compact();
                            frames(arrival);
                            return false; // the last chunk: the stream ended
                        }
                    } else {
                        int take = (int) Math.min(chunkLeft, in.remaining());
                        appendBody(in.array(), in.position(), take);
                        in.position(in.position() + take);
                        chunkLeft -= take;
                        if (chunkLeft == 0) {
                            chunkLeft = -1;
                        }
                    }
                }
            }
            in.compact();
            frames(arrival);
            return true;
        }

        private void appendBody(byte[] bytes, int offset, int length) {
            if (bodyLength + length > body.length) {
                body = java.util.Arrays.copyOf(body, Math.max(body.length * 2, bodyLength + length));
            }
            System.arraycopy(bytes, offset, body, bodyLength, length);
            bodyLength += length;
        }

        /** Hands over the data line of every complete frame and keeps the rest. */
        private void frames(long arrival) {
            int start = 0;
            for (int i = 1; i < bodyLength; i++) {
                if (body[i] == '\n' && body[i - 1] == '\n') {
                    int line = start;
                    while (line < i) {
                        int lineEnd = line;
                        while (lineEnd < i && body[lineEnd] != '\n') {
                            lineEnd++;
                        }
                        if (startsWith(body, line, lineEnd, DATA)) {
                            listener.onText(body, line + DATA.length, lineEnd - line - DATA.length, arrival);
                        }
                        line = lineEnd + 1;
                    }
                    start = i + 1;
                }
            }
            System.arraycopy(body, start, body, 0, bodyLength - start);
            bodyLength -= start;
        }

        private static boolean startsWith(byte[] b, int from, int end, byte[] prefix) {
            if (end - from < prefix.length) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (b[from + i] != prefix[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final class Loop implements Runnable {
        final Selector selector;
        final ConcurrentLinkedQueue<Connection> pending = new ConcurrentLinkedQueue<>();
        volatile boolean running = true;

        Loop() {
            try {
                selector = Selector.open();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void run() {
            try {
                while (running) {
                    selector.select(100);
                    for (Connection connection; (connection = pending.poll()) != null; ) {
                        connection.channel.register(selector, SelectionKey.OP_READ, connection);
                    }
                    for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                        SelectionKey key = it.next();
                        it.remove();
                        Connection connection = (Connection) key.attachment();
                        try {
                            if (!key.isValid() || !connection.read()) {
                                key.cancel();
                                connection.channel.close();
                                connection.listener.onClosed();
                            }
                        } catch (IOException e) {
                            key.cancel();
                            connection.channel.close();
                            connection.listener.onClosed();
                        }
                    }
                }
                selector.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
