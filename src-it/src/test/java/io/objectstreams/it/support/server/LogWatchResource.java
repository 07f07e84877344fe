package io.objectstreams.it.support.server;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What this server logs at WARNING or above, from any logger, once {@code POST it/log/watch} has started the
 * watch: {@code GET it/log/warnings} lists each record as {@code LEVEL logger: message [exception]}, and
 * {@code POST it/log/probe} logs one WARNING to show the watch works.
 */
@Path("it/log")
@Produces(MediaType.APPLICATION_JSON)
public class LogWatchResource {

    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static final Handler WATCH = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                WARNINGS.add(record.getLevel() + " " + record.getLoggerName() + ": " + record.getMessage()
                        + (record.getThrown() == null ? "" : " [" + record.getThrown() + "]"));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    /** Starts (or restarts) the watch with an empty list. */
    @POST
    @Path("watch")
    public JsonArray watch() {
        Logger root = Logger.getLogger("");
        root.removeHandler(WATCH);
        WATCH.setLevel(Level.WARNING);
        root.addHandler(WATCH);
        WARNINGS.clear();
        return Json.createArrayBuilder().build();
    }

    /** Logs one WARNING, so a test can see that the watch sees this server's log. */
    @POST
    @Path("probe")
    public JsonArray probe() {
        Logger.getLogger("io.objectstreams.it.probe").warning("log watch probe");
        return warnings();
    }

    @GET
    @Path("warnings")
    public JsonArray warnings() {
        JsonArrayBuilder list = Json.createArrayBuilder();
        WARNINGS.forEach(list::add);
        return list.build();
    }
}
