package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.Filterable;
import io.objectstreams.Lookup;
import io.objectstreams.Streamed;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A request from a customer's requester, keyed by a UUID the provider generates. Its team may be empty (a ticket
 * nobody has triaged yet), which makes the visibility path ticket → team → tenant nullable: an unassigned ticket is
 * visible to administrators only ({@link TicketVisibility}).
 */
@Entity(name = "Ticket")
@Table(name = "hd_ticket")
@Streamed(model = "helpdesk.Ticket")
public class Ticket {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    @ManyToOne
    @JoinColumn(name = "team_id")
    private Team team;

    private String title;

    @Filterable({Lookup.EXACT, Lookup.IN})
    private String status = "open";

    /** Case-insensitive in the database ({@code citext}): "Ann@Example.com" and "ann@example.com" are one address. */
    @Column(name = "requester_email", columnDefinition = "citext")
    private String requesterEmail;

    /** Changed only through {@link #addComment} and {@link #removeComment}, which keep both sides in step. */
    @OneToMany(mappedBy = "ticket", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("createdAt")
    private List<Comment> comments = new ArrayList<>();

    public void addComment(Comment comment) {
        comments.add(comment);
        comment.setTicket(this);
    }

    /**
     * Removes the comment and nulls its parent; orphan removal then deletes it. EclipseLink writes the null parent
     * with an UPDATE before the DELETE, so {@code hd_comment.ticket_id} may not be NOT NULL (Object Streams'
     * capture.md, "Parts that move or leave"); the change is reported on the ticket the comment left.
     */
    public void removeComment(Comment comment) {
        comments.remove(comment);
        comment.setTicket(null);
    }

    public UUID getId() {
        return id;
    }

    public Team getTeam() {
        return team;
    }

    public void setTeam(Team team) {
        this.team = team;
    }

    public String getTitle() {
        return title;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getRequesterEmail() {
        return requesterEmail;
    }

    public void setRequesterEmail(String requesterEmail) {
        this.requesterEmail = requesterEmail;
    }

    public List<Comment> getComments() {
        return comments;
    }
}
