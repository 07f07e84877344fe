package io.objectstreams.it.support.server;

import io.objectstreams.web.testing.DeliveryFaults;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST it/faults?fault=DROP_EVENT&subscriptions=fault-} arms one of {@link DeliveryFaults} for the subscriptions
 * whose id starts with {@code fault-} (no fault: disarms); {@code GET it/faults}
 * says how often each fired. 409 when the server was not started with the switch.
 */
@Path("it/faults")
@Produces(MediaType.APPLICATION_JSON)
public class FaultsResource {

    @POST
    public Response arm(@QueryParam("fault") String fault, @QueryParam("subscriptions") String prefix) {
        try {
            DeliveryFaults.arm(fault == null || fault.isEmpty() ? null : DeliveryFaults.Fault.valueOf(fault), prefix);
        } catch (IllegalStateException e) {
            return Response.status(409).entity(Json.createObjectBuilder().add("error", e.getMessage()).build()).build();
        }
        return Response.ok(fired()).build();
    }

    @GET
    public JsonObject fired() {
        JsonObjectBuilder counts = Json.createObjectBuilder();
        DeliveryFaults.fired().forEach((fault, count) -> counts.add(fault.name(), count));
        return counts.build();
    }
}
