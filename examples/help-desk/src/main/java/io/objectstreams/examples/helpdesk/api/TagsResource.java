package io.objectstreams.examples.helpdesk.api;

import io.objectstreams.StreamsCursor;
import io.objectstreams.examples.helpdesk.model.Tag;
import io.objectstreams.examples.helpdesk.model.TicketTag;
import io.objectstreams.examples.helpdesk.security.HelpDeskUsers;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The shared tags. Only an administrator creates or deletes one; deleting a tag takes it off every ticket, and a tag
 * deleted and created again under the same name is a new object with the same pk.
 */
@Stateless
@Path("tags")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TagsResource {

    /** A tag as the API shows it. */
    public record TagView(String name, String color) {
    }

    @PersistenceContext(unitName = "helpdesk")
    EntityManager em;

    @GET
    @StreamsCursor
    public List<TagView> list() {
        return em.createQuery("SELECT t FROM Tag t ORDER BY t.name", Tag.class).getResultStream()
                .map(tag -> new TagView(tag.getName(), tag.getColor())).toList();
    }

    @POST
    @RolesAllowed(HelpDeskUsers.ADMIN)
    public TagView create(TagView input) {
        if (input == null || input.name() == null || input.name().isBlank() || input.color() == null) {
            throw new BadRequestException("a tag needs a name and a color");
        }
        Tag tag = em.find(Tag.class, input.name());
        if (tag == null) {
            em.persist(new Tag(input.name(), input.color()));
        } else {
            tag.setColor(input.color());
        }
        return input;
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(HelpDeskUsers.ADMIN)
    public void delete(@PathParam("name") String name) {
        // One by one, not a bulk JPQL DELETE: the capture listener sees entities removed, never bulk statements.
        em.createQuery("SELECT t FROM TicketTag t WHERE t.tagName = :name", TicketTag.class)
                .setParameter("name", name).getResultList().forEach(em::remove);
        Tag tag = em.find(Tag.class, name);
        if (tag != null) {
            em.remove(tag);
        }
    }
}
