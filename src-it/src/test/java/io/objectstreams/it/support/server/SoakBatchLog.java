package io.objectstreams.it.support.server;

import io.objectstreams.StreamBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The soak's record of delivery batches: each batch this server fans out, as a line {@code first last} appended to
 * the file {@code SOAK_BATCHES} names, so the oracle knows which rows one batch held (a delete supersedes only its
 * own batch's earlier events). Active only on a soak server. A file, not a table: a database restart cannot lose a
 * record, and each line is written to the operating system as the batch ends, so a {@code kill -9} loses at most
 * the batch being fanned out at that instant.
 */
@ApplicationScoped
public class SoakBatchLog {

    private static final Logger LOG = Logger.getLogger(SoakBatchLog.class.getName());
    private static final String FILE = System.getenv("SOAK_BATCHES");

    private FileChannel channel;

    void onBatch(@Observes StreamBatch batch) {
        if (FILE == null) {
            return;
        }
        byte[] line = (batch.firstCursor() + " " + batch.lastCursor() + "\n").getBytes(StandardCharsets.US_ASCII);
        synchronized (this) {
            try {
                if (channel == null) {
                    channel = FileChannel.open(Path.of(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND);
                }
                channel.write(java.nio.ByteBuffer.wrap(line));
            } catch (IOException e) {
                // The oracle would then report rows superseded in this batch as gaps: say why, loudly.
                LOG.log(Level.SEVERE, "The soak's batch log could not record cursors " + batch.firstCursor() + ".."
                        + batch.lastCursor() + " in " + FILE, e);
                throw new UncheckedIOException(e);
            }
        }
    }
}
