package io.objectstreams.examples.helpdesk.api;

import io.objectstreams.SourceEvent;
import io.objectstreams.StreamsCursor;
import io.objectstreams.StreamsPublisher;
import io.objectstreams.examples.helpdesk.model.Comment;
import io.objectstreams.examples.helpdesk.model.Tag;
import io.objectstreams.examples.helpdesk.model.Team;
import io.objectstreams.examples.helpdesk.model.Ticket;
import io.objectstreams.examples.helpdesk.model.TicketTag;
import io.objectstreams.examples.helpdesk.security.HelpDeskUsers;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.security.enterprise.SecurityContext;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Tickets, their comments and their tags, as the caller may see them: an agent those of their tenant, an
 * administrator all. Every response that reads carries {@code Streams-Cursor}, so a page can subscribe from it.
 */
@Stateless
@Path("tickets")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TicketsResource {

    @PersistenceContext(unitName = "helpdesk")
    EntityManager em;

    @Inject
    SecurityContext security;

    @Inject
    StreamsPublisher publisher;

    @GET
    @StreamsCursor
    public List<TicketView> list() {
        List<Ticket> tickets = callerTenant()
                .map(tenant -> em.createQuery("SELECT t FROM Ticket t WHERE t.team.tenant.id = :tenant ORDER BY t.title",
                        Ticket.class).setParameter("tenant", tenant).getResultList())
                .orElseGet(() -> isAdmin()
                        ? em.createQuery("SELECT t FROM Ticket t ORDER BY t.title", Ticket.class).getResultList()
                        : List.of());
        return tickets.stream().map(this::view).toList();
    }

    @GET
    @Path("{id}")
    @StreamsCursor
    public TicketView get(@PathParam("id") String id) {
        return view(visible(id));
    }

    @POST
    public TicketView create(TicketInput input) {
        if (input == null || blank(input.title()) || blank(input.requesterEmail())) {
            throw new BadRequestException("a ticket needs a title and a requesterEmail");
        }
        Ticket ticket = new Ticket();
        ticket.setTitle(input.title());
        ticket.setRequesterEmail(input.requesterEmail());
        ticket.setTeam(blank(input.team()) ? null : team(input.team()));
        em.persist(ticket);
        em.flush();
        return view(ticket);
    }

    @PUT
    @Path("{id}")
    public TicketView edit(@PathParam("id") String id, TicketInput input) {
        if (input == null) {
            throw new BadRequestException("send the fields to change");
        }
        Ticket ticket = visible(id);
        if (input.title() != null) {
            ticket.setTitle(input.title());
        }
        if (input.status() != null) {
            ticket.setStatus(input.status());
        }
        if (input.requesterEmail() != null) {
            ticket.setRequesterEmail(input.requesterEmail());
        }
        if (input.team() != null) {
            Team before = ticket.getTeam();
            ticket.setTeam(input.team().isEmpty() ? null : team(input.team()));
            if (ticket.getTeam() != before) {
                tagsMoved(ticket);
            }
        }
        return view(ticket);
    }

    /**
     * A ticket tag is visible through its ticket's team, a row of another model: moving the ticket changes who may see
     * its tags, but no ticket tag row changes, so nothing would tell their holders. Publishing an update of each tag
     * in the same transaction has them decided again: removed for the tenant that lost the ticket, added for the one
     * that gained it.
     */
    private void tagsMoved(Ticket ticket) {
        for (TicketTag tag : em.createQuery("SELECT t FROM TicketTag t WHERE t.ticketId = :id", TicketTag.class)
                .setParameter("id", ticket.getId()).getResultList()) {
            String pk = Json.createArrayBuilder().add(tag.getTicketId().toString()).add(tag.getTagName()).build().toString();
            publisher.publish(SourceEvent.updated("helpdesk.TicketTag", pk, "ticket"));
        }
    }

    @POST
    @Path("{id}/comments")
    public TicketView comment(@PathParam("id") String id, TicketView.CommentView input) {
        if (input == null || input.body() == null || input.body().isBlank()) {
            throw new BadRequestException("a comment needs a body");
        }
        Ticket ticket = visible(id);
        ticket.addComment(new Comment(input.body()));
        em.flush();
        return view(ticket);
    }

    @DELETE
    @Path("{id}/comments/{comment}")
    public TicketView uncomment(@PathParam("id") String id, @PathParam("comment") String commentId) {
        Ticket ticket = visible(id);
        Comment comment = ticket.getComments().stream().filter(c -> c.getId().toString().equals(commentId))
                .findFirst().orElseThrow(() -> new NotFoundException("no such comment"));
        ticket.removeComment(comment);
        em.flush();
        return view(ticket);
    }

    @PUT
    @Path("{id}/tags/{tag}")
    public TicketView tag(@PathParam("id") String id, @PathParam("tag") String tag) {
        Ticket ticket = visible(id);
        if (em.find(Tag.class, tag) == null) {
            throw new NotFoundException("no tag " + tag);
        }
        if (em.find(TicketTag.class, new TicketTag.Key(ticket.getId(), tag)) == null) {
            em.persist(new TicketTag(ticket.getId(), tag));
            em.flush();
        }
        return view(ticket);
    }

    @DELETE
    @Path("{id}/tags/{tag}")
    public TicketView untag(@PathParam("id") String id, @PathParam("tag") String tag) {
        Ticket ticket = visible(id);
        Optional.ofNullable(em.find(TicketTag.class, new TicketTag.Key(ticket.getId(), tag))).ifPresent(em::remove);
        em.flush();
        return view(ticket);
    }

    /** Activity is written by SQL, as a mail gateway would: JPA never sees it, trigger capture does. */
    @POST
    @Path("{id}/activity")
    public TicketView activity(@PathParam("id") String id, TicketView.CommentView input) {
        if (input == null || input.body() == null || input.body().isBlank()) {
            throw new BadRequestException("activity needs a kind, as its body");
        }
        Ticket ticket = visible(id);
        em.createNativeQuery("INSERT INTO hd_ticket_activity (ticket_id, at, kind) VALUES (CAST(? AS uuid), now(), ?)")
                .setParameter(1, ticket.getId().toString()).setParameter(2, input.body()).executeUpdate();
        return view(ticket);
    }

    private TicketView view(Ticket ticket) {
        List<String> tags = em.createQuery("SELECT t.tagName FROM TicketTag t WHERE t.ticketId = :id ORDER BY t.tagName",
                String.class).setParameter("id", ticket.getId()).getResultList();
        Number activity = (Number) em.createNativeQuery(
                "SELECT count(*) FROM hd_ticket_activity WHERE ticket_id = CAST(? AS uuid)")
                .setParameter(1, ticket.getId().toString()).getSingleResult();
        return TicketView.of(ticket, tags, activity.longValue());
    }

    /** The ticket, if the caller may see it; 404 otherwise, so that a stranger cannot tell it exists. */
    private Ticket visible(String id) {
        Ticket ticket = em.find(Ticket.class, uuid(id));
        if (ticket == null || !isAdmin() && (ticket.getTeam() == null
                || !callerTenant().equals(Optional.of(ticket.getTeam().getTenant().getId())))) {
            throw new NotFoundException("no ticket " + id);
        }
        return ticket;
    }

    /** A team of the caller's tenant (any team for an administrator). */
    private Team team(String id) {
        Team team = em.find(Team.class, uuid(id));
        if (team == null || !isAdmin() && !callerTenant().equals(Optional.of(team.getTenant().getId()))) {
            throw new BadRequestException("no team " + id);
        }
        return team;
    }

    private Optional<UUID> callerTenant() {
        return HelpDeskUsers.tenantOf(security.getCallerPrincipal().getName());
    }

    private boolean isAdmin() {
        return security.isCallerInRole(HelpDeskUsers.ADMIN);
    }

    private static UUID uuid(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("no such id " + text);
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
