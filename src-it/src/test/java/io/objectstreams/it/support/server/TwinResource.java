package io.objectstreams.it.support.server;

import io.objectstreams.StreamsAction;
import jakarta.ejb.Stateless;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * JPA writes to the twins ({@link ItTwin} by the entity listener, {@link ItTwinT} by trigger), one transaction per
 * call, for TriggerCaptureIT to compare with the same writes in SQL. {@code kind} is {@code listener} or
 * {@code trigger}.
 */
@Stateless
@StreamsAction
@Path("it/twins/{kind}")
@Produces(MediaType.APPLICATION_JSON)
public class TwinResource {

    @PersistenceContext(unitName = "store")
    EntityManager em;

    /** A twin with these values; returns its id. */
    @POST
    @Path("create")
    public JsonObject create(@PathParam("kind") String kind, @QueryParam("name") String name, @QueryParam("amount") Integer amount,
                         @QueryParam("street") String street, @QueryParam("city") String city) {
        if (trigger(kind)) {
            ItTwinT twin = new ItTwinT();
            twin.setName(name);
            twin.setAmount(amount);
            twin.setPlace(new ItPlace(street, city));
            em.persist(twin);
            em.flush();
            return result(String.valueOf(twin.getId()));
        }
        ItTwin twin = new ItTwin();
        twin.setName(name);
        twin.setAmount(amount);
        twin.setPlace(new ItPlace(street, city));
        em.persist(twin);
        em.flush();
        return result(String.valueOf(twin.getId()));
    }

    /** Changes what is given: the name, the amount, the place (street and city together), the partner. */
    @POST
    @Path("{id}/update")
    public JsonObject update(@PathParam("kind") String kind, @PathParam("id") long id, @QueryParam("name") String name, @QueryParam("amount") Integer amount,
                         @QueryParam("street") String street, @QueryParam("city") String city,
                         @QueryParam("partner") Long partner) {
        if (trigger(kind)) {
            ItTwinT twin = em.find(ItTwinT.class, id);
            if (name != null) twin.setName(name);
            if (amount != null) twin.setAmount(amount);
            if (street != null) twin.setPlace(new ItPlace(street, city));
            if (partner != null) twin.setPartner(em.find(ItTwinT.class, partner));
        } else {
            ItTwin twin = em.find(ItTwin.class, id);
            if (name != null) twin.setName(name);
            if (amount != null) twin.setAmount(amount);
            if (street != null) twin.setPlace(new ItPlace(street, city));
            if (partner != null) twin.setPartner(em.find(ItTwin.class, partner));
        }
        em.flush(); // inside the action: a change flushed at commit would carry no correlation id
        return result("ok");
    }

    @POST
    @Path("{id}/delete")
    public JsonObject delete(@PathParam("kind") String kind, @PathParam("id") long id) {
        em.remove(trigger(kind) ? em.find(ItTwinT.class, id) : em.find(ItTwin.class, id));
        em.flush();
        return result("ok");
    }

    /** A part of twin {@code id}; returns the part's id. */
    @POST
    @Path("{id}/part")
    public JsonObject part(@PathParam("kind") String kind, @PathParam("id") long id, @QueryParam("label") String label) {
        if (trigger(kind)) {
            ItTwinPartT part = new ItTwinPartT();
            part.setLabel(label);
            part.setTwin(em.find(ItTwinT.class, id));
            em.persist(part);
            em.flush();
            return result(String.valueOf(part.getId()));
        }
        ItTwinPart part = new ItTwinPart();
        part.setLabel(label);
        part.setTwin(em.find(ItTwin.class, id));
        em.persist(part);
        em.flush();
        return result(String.valueOf(part.getId()));
    }

    /** Moves part {@code id} to another twin. */
    @POST
    @Path("parts/{id}/move")
    public JsonObject move(@PathParam("kind") String kind, @PathParam("id") long id, @QueryParam("to") long to) {
        if (trigger(kind)) {
            em.find(ItTwinPartT.class, id).setTwin(em.find(ItTwinT.class, to));
        } else {
            em.find(ItTwinPart.class, id).setTwin(em.find(ItTwin.class, to));
        }
        return result("ok");
    }

    private static JsonObject result(String value) {
        return Json.createObjectBuilder().add("result", value).build();
    }

    private static boolean trigger(String kind) {
        return switch (kind) {
            case "trigger" -> true;
            case "listener" -> false;
            default -> throw new IllegalArgumentException("kind is listener or trigger, not " + kind);
        };
    }
}
