package io.objectstreams.it.support.server;

import io.objectstreams.Streamed;
import jakarta.persistence.AttributeOverride;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * One of two twins with one mapping ({@code ItTwin} by the entity listener, {@code ItTwinT} by trigger): the same
 * writes to both must give the same outbox rows ({@code TriggerCaptureIT}). An IDENTITY id (EclipseLink reads it
 * back with {@code lastval()}), a renamed column, an embedded attribute with an override, and a reference.
 */
@Entity(name = "ItTwinT")
@Table(name = "it_twin_t")
@Streamed(model = "it.ItTwinT", capture = Streamed.Capture.TRIGGER)
public class ItTwinT {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "title")
    private String name;

    private Integer amount;

    @Embedded
    @AttributeOverride(name = "street", column = @Column(name = "place_street"))
    private ItPlace place;

    @ManyToOne
    private ItTwinT partner;

    public Long getId() {
        return id;
    }

    public void setName(String name) {
        this.name = name;
    }

    public void setAmount(Integer amount) {
        this.amount = amount;
    }

    public void setPlace(ItPlace place) {
        this.place = place;
    }

    public void setPartner(ItTwinT partner) {
        this.partner = partner;
    }
}
