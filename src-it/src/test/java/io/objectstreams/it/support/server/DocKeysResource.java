package io.objectstreams.it.support.server;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How often {@link ItDocVisibility} was asked a viewer's keys on this server: {@code GET it/doc-keys?viewer=bob} answers {@code {"asked": n}};
 * {@code POST it/doc-keys/reset} starts counting again.
 */
@Path("it/doc-keys")
@Produces(MediaType.APPLICATION_JSON)
public class DocKeysResource {

    @GET
    public JsonObject asked(@QueryParam("viewer") String viewer) {
        AtomicInteger count = ItDocVisibility.ASKED.get(viewer);
        return Json.createObjectBuilder().add("asked", count == null ? 0 : count.get()).build();
    }

    @POST
    @Path("reset")
    public JsonObject reset() {
        ItDocVisibility.ASKED.clear();
        return Json.createObjectBuilder().add("asked", 0).build();
    }
}
