package io.objectstreams.examples.helpdesk.model;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * What happened to a ticket, one row per event, in a table partitioned by month and written by SQL (a mail gateway,
 * a nightly job, psql). JPA never writes it, so it is captured by PostgreSQL triggers, which Object Streams installs
 * on the table and every partition; each row reports its ticket with the facet {@code activity}.
 */
@Entity(name = "TicketActivity")
@Table(name = "hd_ticket_activity")
@Streamed(subject = "ticket", facet = "activity", capture = Streamed.Capture.TRIGGER)
public class TicketActivity {

    /** Unique by its sequence; the table's primary key adds {@code at}, as a partitioned table's must. */
    @Id
    private Long id;

    @ManyToOne
    @JoinColumn(name = "ticket_id")
    private Ticket ticket;

    private OffsetDateTime at;

    private String kind;

    public Long getId() {
        return id;
    }

    public OffsetDateTime getAt() {
        return at;
    }

    public String getKind() {
        return kind;
    }
}
