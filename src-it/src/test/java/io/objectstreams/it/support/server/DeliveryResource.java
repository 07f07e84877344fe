package io.objectstreams.it.support.server;

import io.objectstreams.StreamEvent;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** What {@link DeliveryRecorder} saw: {@code {"batches": n, "events": [[cursor, model, pk], ...]}}. */
@Path("it/delivered")
@Produces(MediaType.APPLICATION_JSON)
public class DeliveryResource {

    @Inject
    DeliveryRecorder recorder;

    @GET
    public JsonObject delivered(@QueryParam("model") String model) {
        JsonArrayBuilder events = Json.createArrayBuilder();
        for (StreamEvent event : recorder.delivered()) {
            if (model == null || model.equals(event.model())) {
                events.add(Json.createArrayBuilder().add(event.cursor()).add(event.model()).add(event.pk()));
            }
        }
        return Json.createObjectBuilder().add("batches", recorder.batches()).add("events", events).build();
    }

    /** Makes the recorder throw, as an application's observer might, for the next {@code failures} batches. */
    @jakarta.ws.rs.POST
    @Path("observer-failures")
    public JsonObject observerFailures(@QueryParam("failures") int failures) {
        DeliveryRecorder.FAILURES.set(failures);
        return Json.createObjectBuilder().add("failures", failures).build();
    }
}
