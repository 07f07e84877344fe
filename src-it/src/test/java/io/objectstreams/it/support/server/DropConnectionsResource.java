package io.objectstreams.it.support.server;

import io.objectstreams.web.subscription.ConnectionRegistry;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Ends every stream connection of this server, as a restart or a network failure would: {@code POST it/drop-connections}. */
@Path("it/drop-connections")
@Produces(MediaType.APPLICATION_JSON)
public class DropConnectionsResource {

    @Inject
    ConnectionRegistry engine;

    @POST
    public JsonObject drop() {
        return Json.createObjectBuilder().add("closed", engine.closeAll("Dropped by the test; reconnect")).build();
    }
}
