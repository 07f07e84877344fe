package io.objectstreams.it.support.server;

import io.objectstreams.StreamsAction;
import jakarta.ejb.Stateless;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** JPA writes to {@link ItKeyedL}, the listener-captured entity with a composite key, one transaction per call. */
@Stateless
@StreamsAction
@Path("it/keyed")
@Produces(MediaType.APPLICATION_JSON)
public class KeyedResource {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    @POST
    @Path("create")
    public JsonObject create(@QueryParam("region") String region, @QueryParam("number") int number,
                             @QueryParam("note") String note) {
        em.persist(new ItKeyedL(region, number, note));
        return ok();
    }

    @POST
    @Path("update")
    public JsonObject update(@QueryParam("region") String region, @QueryParam("number") int number,
                             @QueryParam("note") String note) {
        em.find(ItKeyedL.class, new ItKeyedL.Key(region, number)).setNote(note);
        return ok();
    }

    @POST
    @Path("delete")
    public JsonObject delete(@QueryParam("region") String region, @QueryParam("number") int number) {
        em.remove(em.find(ItKeyedL.class, new ItKeyedL.Key(region, number)));
        return ok();
    }

    private static JsonObject ok() {
        return Json.createObjectBuilder().add("result", "ok").build();
    }
}
