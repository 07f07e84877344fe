package io.objectstreams.it.support.server;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Makes {@link ItNoteVisibility} fail, slow, hide a note, or hold fan-out on this server:
 * {@code it/visibility-fault?failures=1&delayMillis=0&deliveryDelayMillis=0&hide=0&failingViewer=bob&holdDelivery=true}.
 * Each call sets all six; a call without {@code holdDelivery=true} releases a fan-out held by an earlier one.
 */
@Path("it/visibility-fault")
@Produces(MediaType.APPLICATION_JSON)
public class VisibilityFaultResource {

    @POST
    public JsonObject set(@QueryParam("failures") int failures, @QueryParam("delayMillis") long delayMillis,
                          @QueryParam("deliveryDelayMillis") long deliveryDelayMillis, @QueryParam("hide") long hide,
                          @QueryParam("failingViewer") String failingViewer,
                          @QueryParam("holdDelivery") boolean holdDelivery) {
        java.util.concurrent.CountDownLatch released = ItNoteVisibility.HOLD.getAndSet(
                holdDelivery ? new java.util.concurrent.CountDownLatch(1) : null);
        if (released != null) {
            released.countDown();
        }
        ItNoteVisibility.FAILURES.set(failures);
        ItNoteVisibility.DELAY_MILLIS.set(delayMillis);
        ItNoteVisibility.DELIVERY_DELAY_MILLIS.set(deliveryDelayMillis);
        ItNoteVisibility.HIDDEN.set(hide);
        ItNoteVisibility.FAILING_VIEWER.set(failingViewer == null ? "" : failingViewer);
        return Json.createObjectBuilder().add("failures", failures).add("delayMillis", delayMillis)
                .add("deliveryDelayMillis", deliveryDelayMillis).add("hide", hide).build();
    }
}
