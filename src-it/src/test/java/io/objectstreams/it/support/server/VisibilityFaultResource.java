package io.objectstreams.it.support.server;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Makes {@link ItNoteVisibility} fail, slow, or hide a note on this server:
 * {@code it/visibility-fault?failures=1&delayMillis=0&deliveryDelayMillis=0&hide=0&failingViewer=bob}. Each call sets
 * all five.
 */
@Path("it/visibility-fault")
@Produces(MediaType.APPLICATION_JSON)
public class VisibilityFaultResource {

    @POST
    public JsonObject set(@QueryParam("failures") int failures, @QueryParam("delayMillis") long delayMillis,
                          @QueryParam("deliveryDelayMillis") long deliveryDelayMillis, @QueryParam("hide") long hide,
                          @QueryParam("failingViewer") String failingViewer) {
        ItNoteVisibility.FAILURES.set(failures);
        ItNoteVisibility.DELAY_MILLIS.set(delayMillis);
        ItNoteVisibility.DELIVERY_DELAY_MILLIS.set(deliveryDelayMillis);
        ItNoteVisibility.HIDDEN.set(hide);
        ItNoteVisibility.FAILING_VIEWER.set(failingViewer == null ? "" : failingViewer);
        return Json.createObjectBuilder().add("failures", failures).add("delayMillis", delayMillis)
                .add("deliveryDelayMillis", deliveryDelayMillis).add("hide", hide).build();
    }
}
