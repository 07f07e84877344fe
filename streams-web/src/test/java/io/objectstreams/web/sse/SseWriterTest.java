package io.objectstreams.web.sse;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SseWriterTest {

    /** A container's output that takes bytes while {@link #ready}, and otherwise waits for the test to say so. */
    static final class Output extends ServletOutputStream {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        boolean ready = true;
        /** The next write fills the container's buffer: it finishes in the background. */
        boolean fillUp;
        WriteListener listener;

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            this.listener = listener;
        }

        @Override
        public void write(int b) {
            written.write(b);
        }

        @Override
        public void write(byte[] bytes) {
            written.writeBytes(bytes);
            ready = !fillUp;
        }

        String text() {
            return written.toString(StandardCharsets.UTF_8);
        }
    }

    private final Output out = new Output();
    private final AtomicInteger ended = new AtomicInteger();
    private final List<Throwable> failures = new ArrayList<>();
    private final SseWriter writer = new SseWriter(ended::incrementAndGet, failures::add);
    private final List<Throwable> done = new ArrayList<>();

    private SseWriter.Chunk chunk(String text, boolean closeAfter) {
        Consumer<Throwable> told = done::add;
        return new SseWriter.Chunk(text.getBytes(StandardCharsets.UTF_8), told, closeAfter);
    }

    @Test
    void whatWasQueuedBeforeTheStreamOpenedFollowsThePreamble() {
        writer.write(chunk("event: subscribed\n\n", false));
        assertThat(out.text()).isEmpty();

        writer.start(out, "retry: 2000\n\n".getBytes(StandardCharsets.UTF_8));

        assertThat(out.text()).isEqualTo("retry: 2000\n\nevent: subscribed\n\n");
        assertThat(out.listener).isSameAs(writer);
        assertThat(done).containsExactly((Throwable) null);
    }

    @Test
    void aBusyContainerHoldsTheRestUntilItCanTakeMore() {
        writer.start(out, new byte[0]);
        out.ready = false;
        writer.write(chunk("a", false));
        writer.write(chunk("b", false));

        assertThat(out.text()).isEmpty();
        assertThat(done).isEmpty();
        assertThat(writer.writeIfIdle(": ping\n\n".getBytes(StandardCharsets.UTF_8))).as("no heartbeat while busy").isFalse();
        assertThat(writer.stalled(System.nanoTime() + 10_000_000_000L, 1_000_000_000L)).isTrue();

        out.ready = true;
        writer.onWritePossible();

        assertThat(out.text()).isEqualTo("ab");
        assertThat(done).containsExactly(null, null);
        assertThat(writer.stalled(System.nanoTime() + 10_000_000_000L, 1_000_000_000L)).isFalse();
    }

    @Test
    void aLastChunkEndsTheStreamAndLaterOnesAreRefused() {
        writer.start(out, new byte[0]);
        writer.write(chunk(": closing\n\n", true));

        assertThat(ended.get()).isEqualTo(1);
        writer.close();
        writer.write(chunk("too late", false));

        assertThat(out.text()).isEqualTo(": closing\n\n");
        assertThat(done).containsExactly(null, SseWriter.CLOSED);
    }

    @Test
    void closingHandsBackWhatWasStillQueuedOnce() {
        writer.start(out, new byte[0]);
        out.ready = false;
        writer.write(chunk("a", false));

        List<SseWriter.Chunk> dropped = writer.close();
        SseWriter.dropped(dropped);

        assertThat(dropped).hasSize(1);
        assertThat(done).containsExactly(SseWriter.CLOSED);
        assertThat(writer.close()).isNull();
        assertThat(writer.closed()).isTrue();
    }

    @Test
    void aWriteFinishedInTheBackgroundIsDoneOnlyWhenTheContainerSaysSo() {
        writer.start(out, new byte[0]);
        out.fillUp = true;
        writer.write(chunk("a", false));

        assertThat(out.text()).isEqualTo("a");
        assertThat(done).isEmpty();

        out.fillUp = false;
        out.ready = true;
        writer.onWritePossible();
        assertThat(done).containsExactly((Throwable) null);
    }

    @Test
    void aFailedWriteIsReportedToTheOwnerAndToWhoeverWaitedForIt() {
        writer.start(out, new byte[0]);
        out.fillUp = true;
        writer.write(chunk("a", false));
        IllegalStateException gone = new IllegalStateException("reset");

        writer.onError(gone);

        assertThat(failures).containsExactly(gone);
        assertThat(done).containsExactly(gone);
    }
}
