package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.Streamed;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A comment on a ticket: a part of it, reported on the ticket as the facet {@code comments}. */
@Entity(name = "Comment")
@Table(name = "hd_comment")
@Streamed(subject = "ticket", facet = "comments")
public class Comment {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    @ManyToOne
    @JoinColumn(name = "ticket_id")
    private Ticket ticket;

    private String body;

    /** An OffsetDateTime, not an Instant: EclipseLink 4.0 (Payara 6) writes an Instant as bytes, not a timestamp. */
    @Column(name = "created_at")
    private OffsetDateTime createdAt = OffsetDateTime.now();

    protected Comment() {
    }

    public Comment(String body) {
        this.body = body;
    }

    public UUID getId() {
        return id;
    }

    public Ticket getTicket() {
        return ticket;
    }

    void setTicket(Ticket ticket) {
        this.ticket = ticket;
    }

    public String getBody() {
        return body;
    }

    public OffsetDateTime getCreatedAt() {
        return createdAt;
    }
}
