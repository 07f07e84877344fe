package io.objectstreams.web;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Keeps what one class's logger publishes while it is open, for a test to read; closing stops listening. */
public final class LoggedRecords extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new ArrayList<>();

    private LoggedRecords(Logger logger) {
        this.logger = logger;
    }

    /** Starts keeping what the logger of {@code type} publishes. */
    public static LoggedRecords of(Class<?> type) {
        LoggedRecords logged = new LoggedRecords(Logger.getLogger(type.getName()));
        logged.logger.addHandler(logged);
        return logged;
    }

    /** What was published so far, in order. */
    public List<LogRecord> records() {
        return records;
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
