package io.objectstreams.it.support.server;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET it/jvm/pid}: the server JVM's process id, for tests that inspect its heap with {@code jcmd}. */
@Path("it/jvm")
public class JvmResource {

    @GET
    @Path("pid")
    @Produces(MediaType.APPLICATION_JSON)
    public jakarta.json.JsonObject pid() {
        return jakarta.json.Json.createObjectBuilder().add("pid", ProcessHandle.current().pid()).build();
    }
}
