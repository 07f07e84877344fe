package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.Streamed;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.UUID;

/**
 * A tag on a ticket, keyed by both (a composite key: its pk on the wire is {@code ["<ticket uuid>", "<tag>"]}).
 * Visible to whoever may see the ticket, through ticket → team → tenant.
 */
@Entity(name = "TicketTag")
@Table(name = "hd_ticket_tag")
@IdClass(TicketTag.Key.class)
@Streamed(model = "helpdesk.TicketTag")
public class TicketTag {

    @Id
    @Column(name = "ticket_id")
    private UUID ticketId;

    @Id
    @Column(name = "tag_name")
    private String tagName;

    /** The same column as {@link #ticketId}, read-only: the path the visibility policy follows. */
    @ManyToOne
    @JoinColumn(name = "ticket_id", insertable = false, updatable = false)
    private Ticket ticket;

    protected TicketTag() {
    }

    public TicketTag(UUID ticketId, String tagName) {
        this.ticketId = ticketId;
        this.tagName = tagName;
    }

    public UUID getTicketId() {
        return ticketId;
    }

    public String getTagName() {
        return tagName;
    }

    /** The composite key. */
    public static class Key implements Serializable {

        private UUID ticketId;
        private String tagName;

        public Key() {
        }

        public Key(UUID ticketId, String tagName) {
            this.ticketId = ticketId;
            this.tagName = tagName;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.ticketId.equals(ticketId) && key.tagName.equals(tagName);
        }

        @Override
        public int hashCode() {
            return ticketId.hashCode() * 31 + tagName.hashCode();
        }
    }
}
