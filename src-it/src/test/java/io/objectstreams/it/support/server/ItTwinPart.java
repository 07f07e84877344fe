package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/** A part of a {@link ItTwin}, reported on it as its facet {@code parts}; twin of the other capture path's. */
@Entity(name = "ItTwinPart")
@Table(name = "it_twin_part")
@Streamed(subject = "twin", facet = "parts")
public class ItTwinPart {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String label;

    @ManyToOne
    @JoinColumn(name = "twin_id")
    private ItTwin twin;

    public Long getId() {
        return id;
    }

    public void setLabel(String label) {
        this.label = label;
    }

    public ItTwin getTwin() {
        return twin;
    }

    public void setTwin(ItTwin twin) {
        this.twin = twin;
    }
}
