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
import jakarta.persistence.OneToMany;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * One of two twins with one mapping ({@code ItTwin} by the entity listener, {@code ItTwinT} by trigger): the same
 * writes to both must give the same outbox rows ({@code TriggerCaptureIT}). An IDENTITY id (EclipseLink reads it
 * back with {@code lastval()}), a renamed column, an embedded attribute with an override, and a reference.
 */
@Entity(name = "ItTwin")
@Table(name = "it_twin")
@Streamed(model = "it.ItTwin")
public class ItTwin {

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
    private ItTwin partner;

    /** The inverse side, changed through the helpers most JPA guides teach; orphans are deleted. */
    @OneToMany(mappedBy = "twin", orphanRemoval = true)
    private List<ItTwinPart> parts = new ArrayList<>();

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

    public void setPartner(ItTwin partner) {
        this.partner = partner;
    }

    public List<ItTwinPart> getParts() {
        return parts;
    }

    public void addPart(ItTwinPart part) {
        parts.add(part);
        part.setTwin(this);
    }

    public void removePart(ItTwinPart part) {
        parts.remove(part);
        part.setTwin(null);
    }
}
